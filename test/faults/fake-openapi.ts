import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { minimalPdf } from '../helpers/minimal-pdf.js';

/** How the fake Openapi answers one call. */
export type OpenapiFault = 'ok' | '500' | '429' | 'slow' | 'html' | 'truncated' | 'reset' | 'refuse';

interface ProviderSigner {
  name: string;
  surname: string;
  email?: string;
  mobile?: string;
}

interface StoredRequest {
  id: string;
  createdAt: string;
  signers: ProviderSigner[];
  state: string;
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
  /** Our callback URL of each request the fake holds (by its id), as the handover gave it. */
  callbacks: Map<string, string>;
  /** The reads of a request after its handover (`detail`, `signed`, `audit`, by its id), with the fault each met. */
  reads: Map<string, { route: SignatureRead; fault: OpenapiFault }[]>;
  /** Ends a request at the provider: every signer signed (`DONE`), or `ERROR` with error 110. */
  finish(id: string, state: 'DONE' | 'ERROR'): void;
  close(): Promise<void>;
}

/** A read of a request at the provider: its detail, its signed PDF, its audit trail (as PDF). */
export type SignatureRead = 'detail' | 'signed' | 'audit';
/** The fault of the n-th read (from 0) of `route` for the request `id`. */
export type ReadPlan = (route: SignatureRead, id: string, n: number) => OpenapiFault;

/** What the fake serves as a signed PDF and an audit trail. */
export const FAKE_SIGNED_PDF = minimalPdf([{ width: 595, height: 842 }]);
export const FAKE_AUDIT_PDF = minimalPdf([
  { width: 595, height: 842 },
  { width: 595, height: 842 },
]);

const wrapped = (data: unknown) => ({ data, success: true, message: '', error: null });

/**
 * Openapi's OAuth and eSignature APIs (provider-apis.md §2, the shapes test/workers/signature-openapi.test.ts
 * pins with nock) on one loopback address. `plan(key, n)` is the fault of the n-th `POST /EU-SES`
 * (from 0) of one request, keyed by its first signer's e-mail. `slow` and `truncated` create the
 * request before their faulty answer (Openapi has it, the answer was lost); the others create nothing;
 * `refuse` is a 422 refusal of the document. `readPlan` is the fault of each read of a request once
 * handed over (the sync's detail and files; a look-up's detail too): `truncated` cuts a JSON answer,
 * or a PDF, in its middle.
 */
export async function startFakeOpenapi(
  plan: (key: string, n: number) => OpenapiFault,
  tokenPlan: (n: number) => OpenapiFault,
  slowMs: number,
  readPlan: ReadPlan = () => 'ok',
): Promise<FakeOpenapi> {
  const createCalls = new Map<string, OpenapiFault[]>();
  const createTimes = new Map<string, number[]>();
  const created = new Map<string, string[]>();
  const tokenCalls: OpenapiFault[] = [];
  const requests = new Map<string, StoredRequest>();
  const callbacks = new Map<string, string>();
  const reads = new Map<string, { route: SignatureRead; fault: OpenapiFault }[]>();
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
    if (Buffer.isBuffer(body)) {
      if (fault === 'truncated') return sendPdf(res, body.subarray(0, Math.floor(body.length / 2)));
      if (fault === 'slow') {
        held.push(res);
        await new Promise((resolve) => setTimeout(resolve, slowMs));
      }
      return sendPdf(res, body);
    }
    if (fault === 'truncated') return send(res, 200, JSON.stringify(body).slice(0, 60));
    if (fault === 'slow') {
      held.push(res);
      await new Promise((resolve) => setTimeout(resolve, slowMs));
    }
    send(res, 200, body);
  };
  const sendPdf = (res: ServerResponse, content: Buffer) => {
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.end(content);
  };
  const objectOf = (r: StoredRequest) => ({
    id: r.id,
    state: r.state,
    certificateType: 'EU-SES',
    signatureType: 'pades',
    createdAt: r.createdAt,
    errorNumber: r.state === 'ERROR' ? 110 : null,
    errorMessage: r.state === 'ERROR' ? 'Wrong Certificate Credentials' : null,
    signers: r.signers.map((s, k) => ({
      id: `${r.id}-s${k + 1}`,
      ...s,
      state: r.state === 'DONE' ? 'DONE' : 'NEW',
      url: `https://sign.openapi.test/s/${r.id}-${k + 1}`,
    })),
  });
  /** The fault of this read of a request, recorded. */
  const readFault = (route: SignatureRead, id: string): OpenapiFault => {
    const list = reads.get(id) ?? [];
    const fault = readPlan(route, id, list.filter((r) => r.route === route).length);
    list.push({ route, fault });
    reads.set(id, list);
    return fault;
  };

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
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          signers: ProviderSigner[];
          callback?: { url?: string };
        };
        const signers = body.signers.map(({ name, surname, email, mobile }) => ({ name, surname, email, mobile }));
        const key = signers[0]?.email ?? '';
        const calls = createCalls.get(key) ?? [];
        const fault = plan(key, calls.length);
        calls.push(fault);
        createCalls.set(key, calls);
        createTimes.set(key, [...(createTimes.get(key) ?? []), Date.now()]);
        if (faulty(req, res, fault)) return;
        const request = { id: `sig-${next++}`, createdAt: new Date().toISOString(), signers, state: 'WAIT_VALIDATION' };
        requests.set(request.id, request);
        if (body.callback?.url) callbacks.set(request.id, body.callback.url);
        created.set(key, [...(created.get(key) ?? []), request.id]);
        return answer(res, fault, wrapped(objectOf(request)));
      }
      if (req.method === 'GET' && url.pathname === '/signatures') {
        lookups++;
        const list = [...requests.values()].map((r) => ({ id: r.id, state: r.state, createdAt: r.createdAt }));
        return send(res, 200, wrapped(list));
      }
      const read = /^\/signatures\/([^/]+)\/(detail|signedDocument|audit)$/.exec(url.pathname);
      if (req.method === 'GET' && read) {
        const request = requests.get(decodeURIComponent(read[1]));
        if (!request) return send(res, 404, { success: false, message: 'not found', error: 404, data: null });
        const route: SignatureRead = read[2] === 'detail' ? 'detail' : read[2] === 'audit' ? 'audit' : 'signed';
        if (route === 'detail') lookups++;
        const fault = readFault(route, request.id);
        if (faulty(req, res, fault)) return;
        if (route === 'detail') return answer(res, fault, wrapped(objectOf(request)));
        if (request.state !== 'DONE') return send(res, 404, { success: false, message: 'not signed', error: 404 });
        return answer(res, fault, route === 'signed' ? FAKE_SIGNED_PDF : FAKE_AUDIT_PDF);
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
    callbacks,
    reads,
    finish(id, state) {
      const request = requests.get(id);
      if (!request) throw new Error(`the fake holds no request ${id}`);
      request.state = state;
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
