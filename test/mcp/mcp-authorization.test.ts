import { randomUUID } from 'node:crypto';
import test from 'ava';
import { TOOLS } from '../../api/mcp/tools/index.js';
import { ROUTES } from '../../api/routes/index.js';
import { TENANT_KEY_SCOPES } from '../../domain/tenants/api-key.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { type Actor, EXPECTED } from '../contract/authorization-matrix.js';
import { readJson } from '../helpers/http.js';
import { seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
import { sample } from '../helpers/schema-sample.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON-RPC bodies loosely
type Json = any;

/**
 * The authorization matrix of the MCP tools: every tool for every actor holding a secret key. A
 * user's key sees the 16 base tools only (another is an unknown tool); otherwise a tool refuses
 * (isError 403) exactly whom its operation's HTTP route refuses in test/contract/authorization-matrix.ts
 * (403 there), and serves everyone else. Credentials that are not a working secret key are refused
 * at the door (401 -32001). Arguments are the smallest the tool's schema accepts, ids fresh UUIDs.
 */
const KEY_ACTORS = [
  'user_key',
  'user_key_invoices',
  'user_key_signatures',
  'user_key_no_scope',
  'tenant_sandbox',
  'tenant_production',
  'other_tenant',
  'tenant_fiscal_reader',
  'tenant_sub_tenant',
] as const satisfies readonly Actor[];
type KeyActor = (typeof KEY_ACTORS)[number];
type Outcome = 'unknown_tool' | 'refused' | 'served';

const BASE_TOOLS = new Set([
  'create_invoice',
  'get_invoice',
  'list_invoices',
  'download_invoice',
  'create_signature',
  'get_signature',
  'list_signatures',
  'download_signed',
  'cancel_signature',
  'send_reminder',
  'validate_siret',
  'validate_vat',
  'health_check',
  'validate_api_key',
  'get_balance',
  'get_audit_trail',
]);

/** Operations no HTTP route calls: who they refuse, by scope. */
const WITHOUT_ROUTE: Record<string, readonly KeyActor[]> = {
  validate_siret: [],
  validate_vat: [],
  validate_api_key: [],
  // The link to the FEC or the forensic archive: refuses whom their routes refuse (nobody holding a tenant key).
  get_fiscal_export_link: [],
};

/**
 * Refusals the HTTP matrix cannot show: its empty body is refused (422) before them, while the
 * tool's arguments are well formed. A key bound to a sub-tenant acts for that sub-tenant only.
 */
const ALSO_REFUSED: Record<string, readonly KeyActor[]> = {
  activate_kill_switch: ['tenant_sub_tenant'],
  create_sub_tenant: ['tenant_sub_tenant'],
  update_tenant_profile: ['tenant_sub_tenant'],
};

/** What each key actor gets from a tool. */
function expected(tool: (typeof TOOLS)[number]): Record<KeyActor, Outcome> {
  const operation = typeof tool.operation === 'function' ? tool.operation({ entity_type: 'invoice' }) : tool.operation;
  const route = ROUTES.find((r) => r.operation === operation && !r.path.includes('/sandbox/'));
  const refusedBy: readonly KeyActor[] =
    WITHOUT_ROUTE[operation.name] ??
    (() => {
      if (!route) throw new Error(`${tool.name}: no route calls ${operation.name}; add it to WITHOUT_ROUTE`);
      const row = EXPECTED[`${route.method.toUpperCase()} ${route.path}`];
      return KEY_ACTORS.filter((actor) => row[actor] === 403 || ALSO_REFUSED[tool.name]?.includes(actor));
    })();
  return Object.fromEntries(
    KEY_ACTORS.map((actor) => [
      actor,
      actor.startsWith('user_') && !BASE_TOOLS.has(tool.name)
        ? 'unknown_tool'
        : refusedBy.includes(actor)
          ? 'refused'
          : 'served',
    ]),
  ) as Record<KeyActor, Outcome>;
}

let app: TestApp;
let keys: Record<KeyActor, string>;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  const db = app.ownerDb;
  const user = await seedUser(db);
  const tenant = await seedPlatformTenant(db, { kyb: 'verified' });
  const other = await seedPlatformTenant(db, { kyb: 'verified' });
  const [subTenant] = await db('sub_tenants')
    .insert({ tenant_id: tenant.tenantId, environment: 'sandbox', name: 'Owned', external_id: `ext-${randomUUID()}` })
    .returning(['id']);
  const tenantKey = async (scopes: readonly string[], subTenantId: string | null = null) =>
    (
      await insertApiKey(db, tenant.tenantId, {
        name: 'matrix',
        kind: 'secret',
        environment: 'sandbox',
        scopes,
        subTenantId,
      })
    ).key;
  keys = {
    user_key: await seedUserKey(db, user, {}),
    user_key_invoices: await seedUserKey(db, user, { scopes: ['invoices'] }),
    user_key_signatures: await seedUserKey(db, user, { scopes: ['signatures'] }),
    user_key_no_scope: await seedUserKey(db, user, { scopes: [] }),
    tenant_sandbox: tenant.keys.sk_test,
    tenant_production: tenant.keys.sk_live,
    other_tenant: other.keys.sk_test,
    tenant_fiscal_reader: await tenantKey(['fiscal:read']),
    tenant_sub_tenant: await tenantKey(TENANT_KEY_SCOPES, subTenant.id),
  };
});
test.after.always(() => app?.close());

async function open(key: string): Promise<(body: unknown) => Promise<Json>> {
  const post = (body: unknown, session?: string) =>
    app.request('/mcp', {
      method: 'POST',
      headers: {
        'X-API-Key': key,
        'Content-Type': 'application/json',
        ...(session ? { 'Mcp-Session-Id': session } : {}),
      },
      body: JSON.stringify(body),
    });
  const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
  const session = init.headers.get('mcp-session-id') as string;
  return async (body) => readJson(await post(body, session));
}

test('credentials other than a working secret key are refused at the door: 401 with -32001', async (t) => {
  const user = await seedUser(app.ownerDb);
  const tenant = await seedPlatformTenant(app.ownerDb);
  const refused = {
    anonymous: {},
    user_token: { Authorization: `Bearer ${user.token}` },
    revoked_key: { 'X-API-Key': await seedUserKey(app.ownerDb, user, { revoked: true }) },
    expired_key: { 'X-API-Key': await seedUserKey(app.ownerDb, user, { expiresAt: new Date(Date.now() - 60_000) }) },
    publishable_key: { 'X-API-Key': tenant.keys.pk_test },
  };
  for (const [actor, headers] of Object.entries(refused)) {
    const res = await app.request('/mcp', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
    });
    t.is(res.status, 401, actor);
    t.is((await readJson(res)).error.code, -32001, actor);
  }
});

test('every tool, for every key actor: the audience, then the same refusals as its HTTP route', async (t) => {
  t.is(TOOLS.length, 54);
  const calls = Object.fromEntries(
    await Promise.all(KEY_ACTORS.map(async (actor) => [actor, await open(keys[actor])])),
  );
  const mismatches: string[] = [];
  for (const tool of TOOLS) {
    const want = expected(tool);
    const { tools } = (await calls.tenant_sandbox({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).result;
    const listed = tools.find((l: Json) => l.name === tool.name);
    const args = sample(listed.inputSchema) as Record<string, unknown>;
    for (const actor of KEY_ACTORS) {
      const body = await calls[actor]({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: tool.name, arguments: args },
      });
      const got: Outcome | string = body.error
        ? body.error.code === -32602 && /Unknown tool/.test(body.error.message)
          ? 'unknown_tool'
          : `rpc ${body.error.code}: ${body.error.message}`
        : body.result.isError &&
            /^(FORBIDDEN|FISCAL_SCOPE_DENIED|API_KEY_ENVIRONMENT_MISMATCH):/.test(body.result.content[0].text)
          ? 'refused'
          : 'served';
      if (got !== want[actor]) {
        mismatches.push(
          `${tool.name} × ${actor}: expected ${want[actor]}, got ${got}${body.result?.isError ? ` (${body.result.content[0].text})` : ''}`,
        );
      }
    }
  }
  t.deepEqual(mismatches, []);
});
