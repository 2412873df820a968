import { createDatabase } from '../domain/shared/database.js';
import { type SeededTenant, seedPlatformTenant } from '../test/helpers/identities.js';
import { CREATE_PATH, tenLineBody } from './invoice-load.js';
import { onePagePdf } from './signature-document.js';

export interface ScenarioContext {
  /** http://127.0.0.1:<port> of the web process under test. */
  baseUrl: string;
  /** The fresh, migrated bench database the web process uses. */
  databaseUrl: string;
}

/** What a setup step may add to the request, e.g. an Authorization header for a key it created. */
export interface ScenarioRequest {
  path?: string;
  headers?: Record<string, string>;
  /** Headers added to each request in turn, one set after the other (a key per tenant). */
  headerSets?: Record<string, string>[];
  body?: string;
}

export interface Scenario {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Concurrent connections for this scenario (BENCH_CONNECTIONS otherwise). */
  connections?: number;
  /** autocannon replaces `[<id>]` in the body with a fresh id on every request (unique invoice numbers). */
  idReplacement?: boolean;
  /** Runs once before the warm-up; what it returns overrides the fields above. */
  setup?: (context: ScenarioContext) => Promise<ScenarioRequest | undefined>;
}

/** Tenants of `invoice_create_many_tenants` (the floor's many-tenant run uses 50 too). */
const MANY_TENANTS = 50;

/** A verified platform tenant with its keys, written straight into the bench database. */
async function benchTenant(databaseUrl: string): Promise<SeededTenant> {
  const db = createDatabase(databaseUrl, { poolMax: 1 });
  try {
    return await seedPlatformTenant(db, { kyb: 'verified' });
  } finally {
    await db.destroy();
  }
}

/** The MCP session of a key, opened once with `initialize` (the calls then carry its Mcp-Session-Id). */
async function mcpSession(baseUrl: string, key: string): Promise<string> {
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  const session = res.headers.get('mcp-session-id');
  await res.arrayBuffer();
  if (!session) throw new Error(`MCP initialize answered ${res.status} without a session`);
  return session;
}

/** The HTTP route `mcp_tools_call` is compared with: the same operation, credential and tenant. */
export const MCP_HTTP_EQUIVALENT = 'tenant-me (secret key)';

export const SCENARIOS: Scenario[] = [
  { name: 'pricing', method: 'GET', path: '/api/v1/pricing' },
  {
    // The whole authenticated path: key format, SHA-256 lookup, checks, last-use, rate limit, RLS transaction.
    name: 'tenant-me (secret key)',
    method: 'GET',
    path: '/api/v1/tenant/me',
    setup: async ({ databaseUrl }) => {
      const tenant = await benchTenant(databaseUrl);
      return { headers: { 'X-Tenant-Key': tenant.keys.sk_live } };
    },
  },
  {
    // The same read as `tenant-me (secret key)` through the MCP server: a read-only tool
    // (`get_tenant_profile`, the route's operation) called in an open session with the same kind of
    // key. Its CPU per call is compared with the route's (target: at most 1.3 ×).
    name: 'mcp_tools_call',
    method: 'POST',
    path: '/mcp',
    setup: async ({ baseUrl, databaseUrl }) => {
      const tenant = await benchTenant(databaseUrl);
      const key = tenant.keys.sk_live;
      return {
        headers: {
          'X-API-Key': key,
          'Mcp-Session-Id': await mcpSession(baseUrl, key),
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'get_tenant_profile', arguments: {} },
        }),
      };
    },
  },
  {
    // A 10-line sandbox invoice through the whole creation path: validation, totals, rows, audit
    // entry, event and jobs, then the ledger append under the chain's lock, in one transaction.
    name: 'invoice_create',
    method: 'POST',
    path: CREATE_PATH,
    connections: 50,
    idReplacement: true,
    setup: async ({ databaseUrl }) => {
      const tenant = await benchTenant(databaseUrl);
      return {
        headers: { 'X-API-Key': tenant.keys.sk_test, 'Content-Type': 'application/json' },
        body: tenLineBody('B-[<id>]'),
      };
    },
  },
  {
    // The same creation spread over 50 tenants, each request with the next tenant's key: no two
    // concurrent creations share a group-commit lane, so each is a transaction of its own (the
    // floor's `many_tenants` figures are its yardstick).
    name: 'invoice_create_many_tenants',
    method: 'POST',
    path: CREATE_PATH,
    connections: 50,
    idReplacement: true,
    setup: async ({ databaseUrl }) => {
      const tenants: SeededTenant[] = [];
      for (let i = 0; i < MANY_TENANTS; i++) tenants.push(await benchTenant(databaseUrl));
      return {
        headers: { 'Content-Type': 'application/json' },
        headerSets: tenants.map((tenant) => ({ 'X-API-Key': tenant.keys.sk_test })),
        body: tenLineBody('M-[<id>]'),
      };
    },
  },
  {
    // A sandbox signature request with a one-page PDF of 50 KB and one signer: the body's base64,
    // the PDF read once in the worker pool, then the request, its signer, document, audit entry
    // and event in one transaction.
    name: 'signature_create',
    method: 'POST',
    path: '/api/v1/sandbox/signatures',
    setup: async ({ databaseUrl }) => {
      const tenant = await benchTenant(databaseUrl);
      return {
        headers: { 'X-API-Key': tenant.keys.sk_test, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          title: 'Contrat de prestation',
          document: onePagePdf(50 * 1024).toString('base64'),
          document_name: 'contrat.pdf',
          signers: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', auth_method: 'email' }],
        }),
      };
    },
  },
];
