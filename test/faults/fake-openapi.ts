import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake Openapi answers one call. */
export type OpenapiFault = 'ok' | '500' | '429' | 'slow' | 'html' | 'truncated' | 'reset' | 'refuse';

interface ProviderSigner {
  name: string;
  surname: string;
  email?: string;
  mobile?: string;
}

export interface FakeOpenapi {
  /** OPENAPI_BASE_URL: both hosts (OAuth `/tokens`, eSignature `/EU-SES`, `/signatures`). */
  url: string;
  /** `POST /EU-SES` calls per request (keyed by its first signer's e-mail), with the fault each met. */
  createCalls: Map<string, OpenapiFault[]>;
  /** When each of those calls arrived (ms since the epoch). */
  createTimes: Map<string, number[]>;
  /** Signature requests the fake holds, per key: more than one is a duplicate at the provider. */
  created: Map<string, string[]>;
  /** Faults served to `POST /tokens`, and the list and detail reads (a lost answer's look-up). */
  tokenCalls: OpenapiFault[];
  lookups: number;
  close(): Promise<void>;
}

const wrapped = (data: unknown) => ({ data, success: true, message: '', error: null });

/**
 * Openapi's OAuth and eSignature APIs (provider-apis.md §2, the shapes test/workers/signature-openapi.test.ts
 * pins with nock) on one loopback address. `plan(key, n)` is the fault of the n-th `POST /EU-SES`
 * (from 0) of one request, keyed by its first signer's e-mail. `slow` and `truncated` create the
 * request before their faulty answer (Openapi has it, the answer was lost); the others create nothing;
 * `refuse` is a 422 refusal of the document.
 */
export async function startFakeOpenapi(
  plan: (key: string, n: number) => OpenapiFault,
  tokenPlan: (n: number) => OpenapiFault,
  slowMs: number,
): Promise<FakeOpenapi> {
  const createCalls = new Map<string, OpenapiFault[]>();
  const createTimes = new Map<string, number[]>();
  const created = new Map<string, string[]>();
  const tokenCalls: OpenapiFault[] = [];
  const requests = new Map<string, { id: string; createdAt: string; signers: ProviderSigner[] }>();
  const held: ServerResponse[] = [];
  let lookups = 0;
  let next = 1;

  const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': type });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  /** The answer of a fault that is not a success; false for `ok`, `slow`, `truncated`. */
  const faulty = (req: IncomingMessage, res: ServerResponse, fault: OpenapiFault): boolean => {
    switch (fault) {
      case '500':
        send(res, 500, { success: false, message: 'Internal error', error: 500, data: null });
        return true;
      case '429':
        send(res, 429, { success: false, message: 'Too many requests', error: 429, data: null });
        return true;
      case 'html':
        send(res, 200, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html');
        return true;
      case 'reset':
        req.socket.destroy();
        return true;
      case 'refuse':
        send(res, 422, { success: false, message: 'The document is not a valid PDF/A', error: 422, data: null });
        return true;
      default:
        return false;
    }
  };
  const answer = async (res: ServerResponse, fault: OpenapiFault, body: unknown) => {
    if (fault === 'truncated') return send(res, 200, JSON.stringify(body).slice(0, 60));
    if (fault === 'slow') {
      held.push(res);
      await new Promise((resolve) => setTimeout(resolve, slowMs));
    }
    send(res, 200, body);
  };
  const objectOf = (r: { id: string; createdAt: string; signers: ProviderSigner[] }) => ({
    id: r.id,
    state: 'WAIT_VALIDATION',
    certificateType: 'EU-SES',
    signatureType: 'pades',
    createdAt: r.createdAt,
    errorNumber: null,
    errorMessage: null,
    signers: r.signers.map((s, k) => ({
      id: `${r.id}-s${k + 1}`,
      ...s,
      state: 'NEW',
      url: `https://sign.openapi.test/s/${r.id}-${k + 1}`,
    })),
  });

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const auth = String(req.headers.authorization ?? '');
      if (req.method === 'POST' && url.pathname === '/tokens') {
        const fault = tokenPlan(tokenCalls.length);
        tokenCalls.push(fault);
        if (!auth.startsWith('Basic ')) return send(res, 401, { success: false, message: 'no key', error: 401 });
        if (faulty(req, res, fault)) return;
        const { scopes } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { scopes?: string[] };
        return answer(
          res,
          fault,
          wrapped({ token: `tok-${next++}`, scopes, expireAt: Math.floor(Date.now() / 1000) + 365 * 86400 }),
        );
      }
      if (!auth.startsWith('Bearer tok-')) return send(res, 401, { success: false, message: 'no token', error: 401 });
      if (req.method === 'POST' && url.pathname === '/EU-SES') {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { signers: ProviderSigner[] };
        const signers = body.signers.map(({ name, surname, email, mobile }) => ({ name, surname, email, mobile }));
        const key = signers[0]?.email ?? '';
        const calls = createCalls.get(key) ?? [];
        const fault = plan(key, calls.length);
        calls.push(fault);
        createCalls.set(key, calls);
        createTimes.set(key, [...(createTimes.get(key) ?? []), Date.now()]);
        if (faulty(req, res, fault)) return;
        const request = { id: `sig-${next++}`, createdAt: new Date().toISOString(), signers };
        requests.set(request.id, request);
        created.set(key, [...(created.get(key) ?? []), request.id]);
        return answer(res, fault, wrapped(objectOf(request)));
      }
      if (req.method === 'GET' && url.pathname === '/signatures') {
        lookups++;
        const list = [...requests.values()].map((r) => ({
          id: r.id,
          state: 'WAIT_VALIDATION',
          createdAt: r.createdAt,
        }));
        return send(res, 200, wrapped(list));
      }
      const detail = /^\/signatures\/([^/]+)\/detail$/.exec(url.pathname);
      if (req.method === 'GET' && detail) {
        lookups++;
        const request = requests.get(decodeURIComponent(detail[1]));
        if (!request) return send(res, 404, { success: false, message: 'not found', error: 404, data: null });
        return send(res, 200, wrapped(objectOf(request)));
      }
      send(res, 404, { success: false, message: `no route ${req.method} ${url.pathname}`, error: 404, data: null });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    createCalls,
    createTimes,
    created,
    tokenCalls,
    get lookups() {
      return lookups;
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
