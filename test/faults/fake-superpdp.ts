import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the fake SuperPDP answers one call. */
export type SuperPdpFault = 'ok' | '503' | '429' | 'slow' | 'html' | 'truncated' | 'reset';

export interface FakeSuperPdp {
  /** SUPERPDP_BASE_URL. */
  url: string;
  /** Upload calls per external id (our invoice id), with the fault each met, in arrival order. */
  uploadCalls: Map<string, SuperPdpFault[]>;
  /** When each of those calls arrived (ms since the epoch). */
  uploadTimes: Map<string, number[]>;
  /** Invoices the fake holds (accepted uploads), by external id: more than one would be a double upload. */
  accepted: Map<string, number[]>;
  /** Faults served to the token endpoint and to the event list, in arrival order. */
  tokenCalls: SuperPdpFault[];
  eventCalls: SuperPdpFault[];
  close(): Promise<void>;
}

export interface SuperPdpPlan {
  /** The fault of the n-th upload (from 0) of one external id. */
  upload(externalId: string, n: number): SuperPdpFault;
  /** The fault of the n-th token call and of the n-th event list call (from 0). */
  token(n: number): SuperPdpFault;
  events(n: number): SuperPdpFault;
}

const TRUNCATED = '{"id": 99, "created_at": "2026-11-26T10:00:00Z", "direction": "out", "exter';
const HTML = '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';

/**
 * SuperPDP's API (provider-apis.md §1, the shapes test/workers/transmission-superpdp.test.ts pins
 * with nock) on loopback: client-credentials tokens, raw uploads keyed by `external_id`, the outgoing
 * list `findUploaded` reads, and the event stream (`api:uploaded` then `fr:200` per invoice).
 * `slow`, `truncated` store the upload before their faulty answer (the provider accepted it, the
 * answer was lost); `503`, `429`, `html` and `reset` store nothing.
 */
export async function startFakeSuperPdp(plan: SuperPdpPlan, slowMs: number): Promise<FakeSuperPdp> {
  const uploadCalls = new Map<string, SuperPdpFault[]>();
  const uploadTimes = new Map<string, number[]>();
  const accepted = new Map<string, number[]>();
  const tokenCalls: SuperPdpFault[] = [];
  const eventCalls: SuperPdpFault[] = [];
  const invoices: { id: number; external_id: string; created_at: string }[] = [];
  const events: { id: number; invoice_id: number; status_code: string; status_text: string; created_at: string }[] = [];
  let nextId = 1000;
  let tokens = 0;
  const held: ServerResponse[] = [];

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  /** A fault's answer; false when the fault is `ok`, `slow` or `truncated` (the caller answers). */
  const faulty = (req: IncomingMessage, res: ServerResponse, fault: SuperPdpFault): boolean => {
    switch (fault) {
      case '503':
        json(res, 503, { http_status_code: 503, message: 'Service temporarily unavailable' });
        return true;
      case '429':
        json(res, 429, { http_status_code: 429, message: 'Too many requests' }, { 'retry-after': '1' });
        return true;
      case 'html':
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(HTML);
        return true;
      case 'reset':
        req.socket.destroy();
        return true;
      default:
        return false;
    }
  };
  const answer = async (res: ServerResponse, fault: SuperPdpFault, body: unknown) => {
    if (fault === 'truncated') return json(res, 200, TRUNCATED);
    if (fault === 'slow') {
      held.push(res);
      await new Promise((resolve) => setTimeout(resolve, slowMs));
    }
    json(res, 200, body);
  };
  const event = (invoiceId: number, code: string) => {
    const e = {
      id: nextId++,
      invoice_id: invoiceId,
      status_code: code,
      status_text: code,
      created_at: new Date().toISOString(),
    };
    events.push(e);
    return e;
  };

  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname === '/oauth2/token') {
        const fault = plan.token(tokenCalls.length);
        tokenCalls.push(fault);
        if (faulty(req, res, fault)) return;
        tokens++;
        return answer(res, fault, {
          access_token: `at_${tokens}`,
          token_type: 'bearer',
          expires_in: 1800,
          refresh_token: `rt_${tokens}`,
        });
      }
      if (!String(req.headers.authorization ?? '').startsWith('Bearer at_')) {
        return json(res, 401, { http_status_code: 401, message: 'no token' });
      }
      if (req.method === 'GET' && url.pathname === '/v1.beta/invoices') {
        const data = invoices
          .filter(() => url.searchParams.get('direction') === 'out')
          .sort((a, b) => b.id - a.id)
          .slice(0, Number(url.searchParams.get('limit') ?? 100));
        return json(res, 200, { data, count: data.length, has_after: false, has_before: false });
      }
      if (req.method === 'POST' && url.pathname === '/v1.beta/invoices') {
        const externalId = url.searchParams.get('external_id') ?? '';
        const calls = uploadCalls.get(externalId) ?? [];
        const fault = plan.upload(externalId, calls.length);
        calls.push(fault);
        uploadCalls.set(externalId, calls);
        uploadTimes.set(externalId, [...(uploadTimes.get(externalId) ?? []), Date.now()]);
        if (faulty(req, res, fault)) return;
        const invoice = { id: nextId++, external_id: externalId, created_at: new Date().toISOString() };
        invoices.push(invoice);
        accepted.set(externalId, [...(accepted.get(externalId) ?? []), invoice.id]);
        const uploaded = event(invoice.id, 'api:uploaded');
        event(invoice.id, 'fr:200');
        return answer(res, fault, {
          ...invoice,
          company_id: 41,
          direction: 'out',
          processing_rule: url.searchParams.get('processing_rule'),
          events: [uploaded],
        });
      }
      if (req.method === 'GET' && url.pathname === '/v1.beta/invoice_events') {
        const fault = plan.events(eventCalls.length);
        eventCalls.push(fault);
        if (faulty(req, res, fault)) return;
        const after = Number(url.searchParams.get('starting_after_id') ?? 0);
        const limit = Number(url.searchParams.get('limit') ?? 100);
        const page = events.filter((e) => e.id > after);
        return answer(res, fault, { data: page.slice(0, limit), has_after: page.length > limit });
      }
      json(res, 404, { http_status_code: 404, message: `no route ${req.method} ${url.pathname}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    uploadCalls,
    uploadTimes,
    accepted,
    tokenCalls,
    eventCalls,
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
