import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from 'knex';
import { renderFormat } from '../domain/documents/index.js';
import { parseAppKey } from '../domain/shared/config.js';
import { sealClientSecret } from '../domain/transmission/index.js';
import { buildDocument } from '../test/fixtures/invoice-document-builder.js';

/** One supplier invoice the fake put in a company's inbox. */
export interface Offered {
  id: number;
  clientId: string;
  /** Date.now() when it appeared in the inbox. */
  offeredAt: number;
}

export interface FakeSuperpdpInbox {
  /** SUPERPDP_BASE_URL for the service's processes. */
  url: string;
  /** SUPERPDP_WEBHOOK_SECRET: the key of the sync triggers the fake sends. */
  webhookSecret: string;
  /** Every invoice offered so far, by SuperPDP id. */
  offered: Map<number, Offered>;
  /** `GET /v1.beta/invoices/{id}?format=original` answered, repeats included. */
  downloads(): number;
  /** Puts one new supplier invoice in the next company's inbox (round robin). */
  offer(): void;
  /** A signed `invoice.received` trigger to the service (`POST /webhooks/superpdp`). */
  trigger(): Promise<void>;
  close(): Promise<void>;
}

interface InboxItem {
  id: number;
  created_at: string;
  bytes: Buffer;
}

/**
 * SuperPDP's inbox as the adapter reads it (provider-apis.md §1.2, §1.5, §1.7; the shapes of the
 * nock tests in test/workers/transmission-superpdp.test.ts): `POST /oauth2/token` (client
 * credentials; the access token names the client), `GET /v1.beta/invoices?direction=in&order=asc
 * &starting_after_id&limit` (`{data, count, has_after, has_before}`, ids ascending across every
 * company), `GET /v1.beta/invoices/{id}?format=original` (the UBL file), and empty outgoing lists and
 * event streams. Each company is one OAuth client, `clients`. SuperPDP has no webhooks (§1.10):
 * what tells the service to look is the `[OURS]` trigger `POST /webhooks/superpdp`
 * (`invoice.received`), which `trigger()` sends to `serviceUrl` as a periodic job would.
 */
export async function startFakeSuperpdpInbox(serviceUrl: () => string, clients: string[]): Promise<FakeSuperpdpInbox> {
  const webhookSecret = `soak-${randomUUID()}`;
  const inboxes = new Map<string, InboxItem[]>(clients.map((c) => [c, []]));
  const offered = new Map<number, Offered>();
  let nextId = 50_000;
  let next = 0;
  let downloads = 0;
  let triggers = 0;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const clientOf = (req: IncomingMessage): string | null => {
    const token = /^Bearer at-(.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? null;
    return token && inboxes.has(token) ? token : null;
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (req.method === 'POST' && url.pathname === '/oauth2/token') {
        const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
        const client = form.get('client_id') ?? '';
        if (!inboxes.has(client) || form.get('client_secret') !== `secret-${client}`) {
          return json(res, 401, { error: 'invalid_client' });
        }
        return json(res, 200, { access_token: `at-${client}`, token_type: 'bearer', expires_in: 1800 });
      }
      const client = clientOf(req);
      if (!client) return json(res, 401, { http_status_code: 401, message: 'invalid token' });
      const inbox = inboxes.get(client)!;
      if (req.method === 'GET' && url.pathname === '/v1.beta/invoices') {
        if (url.searchParams.get('direction') !== 'in') {
          return json(res, 200, { data: [], count: 0, has_after: false, has_before: false });
        }
        const after = Number(url.searchParams.get('starting_after_id') ?? 0);
        const limit = Math.min(1000, Number(url.searchParams.get('limit') ?? 100));
        const newer = inbox.filter((i) => i.id > after);
        const data = newer
          .slice(0, limit)
          .map((i) => ({ id: i.id, company_id: 41, created_at: i.created_at, direction: 'in' }));
        return json(res, 200, { data, count: data.length, has_after: newer.length > limit, has_before: after > 0 });
      }
      const download = /^\/v1\.beta\/invoices\/(\d+)$/.exec(url.pathname);
      if (req.method === 'GET' && download && url.searchParams.get('format') === 'original') {
        const item = inbox.find((i) => i.id === Number(download[1]));
        if (!item) return json(res, 404, { http_status_code: 404, message: 'not found' });
        downloads++;
        res.writeHead(200, { 'Content-Type': 'application/xml' });
        return res.end(item.bytes);
      }
      if (req.method === 'GET' && url.pathname === '/v1.beta/invoice_events') {
        return json(res, 200, { data: [], has_after: false });
      }
      return json(res, 404, { http_status_code: 404, message: `no ${req.method} ${url.pathname} in the fake` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  const trigger = async () => {
    const t = Math.floor(Date.now() / 1000);
    const raw = JSON.stringify({
      id: `soak-trigger-${++triggers}-${randomUUID()}`,
      type: 'invoice.received',
      created_at: new Date().toISOString(),
      data: {},
    });
    const signature = `t=${t},v1=${createHmac('sha256', webhookSecret).update(`${t}.${raw}`).digest('hex')}`;
    const res = await fetch(`${serviceUrl()}/webhooks/superpdp`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-SuperPDP-Signature': signature },
      body: raw,
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`the sync trigger answered ${res.status}: ${text.slice(0, 300)}`);
  };

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    webhookSecret,
    offered,
    downloads: () => downloads,
    offer() {
      const client = clients[next++ % clients.length];
      const id = nextId++;
      const bytes = renderFormat(
        buildDocument({
          number: `INBOX-${id}`,
          lines: [{ description: 'Cartouches', quantity: '3', unitPrice: '21.00' }],
        }),
        'ubl',
      ).find((f) => f.kind === 'ubl')!.content;
      inboxes.get(client)!.push({ id, created_at: new Date().toISOString(), bytes });
      offered.set(id, { id, clientId: client, offeredAt: Date.now() });
    },
    trigger,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Connects a production sub-tenant to the fake as `connect_provider` does (one OAuth client of its
 * own company, the secret sealed under APP_KEY), written directly: the bench has the database, not
 * the operator's CLI. The client is `soak-inbox-<n>`, its secret `secret-<client>`.
 */
export async function connectToFake(
  owner: Knex,
  appKey: string,
  connection: { tenantId: string; subTenantId: string; clientId: string },
): Promise<string> {
  const id = randomUUID();
  const key = parseAppKey(appKey);
  if (!key) throw new Error('APP_KEY is not a 32-byte key');
  await owner('provider_connections').insert({
    id,
    tenant_id: connection.tenantId,
    sub_tenant_id: connection.subTenantId,
    environment: 'production',
    provider: 'superpdp',
    client_id: connection.clientId,
    client_secret_sealed: sealClientSecret(key, id, `secret-${connection.clientId}`),
    status: 'active',
  });
  return id;
}
