import { createHash } from 'node:crypto';
import test from 'ava';
import { DEFAULT_RATE_LIMITS } from '../../domain/shared/rate-limit-defaults.js';
import { readJson } from '../helpers/http.js';
import { seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** The MCP transport's every error case and edge, over raw HTTP (spec "MCP server", "Errors"). */
let app: TestApp;
let key: string;
test.before(async () => {
  app = await startTestApp({
    env: {
      RATE_LIMIT_SCALE: '1',
      RATE_LIMITS: '{"mcp":{"per_minute":1000}}',
      CORS_ORIGINS: 'https://agent.example.com',
    },
    mcp: { streamPingMs: 50 },
  });
  key = (await seedPlatformTenant(app.ownerDb)).keys.sk_test;
});
test.after.always(() => app?.close());

const rpc = (body: unknown, headers: Record<string, string> = {}, path = '/mcp') =>
  app.request(path, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

async function session(k = key): Promise<string> {
  const res = await rpc(
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2024-11-05', clientInfo: { name: 't', version: '1' } },
    },
    { 'X-API-Key': k },
  );
  return res.headers.get('mcp-session-id') as string;
}

test('initialize echoes 2024-11-05 and the newer versions, names the server, issues a session id', async (t) => {
  for (const [asked, got] of [
    ['2024-11-05', '2024-11-05'],
    ['2025-03-26', '2025-03-26'],
    ['2025-06-18', '2025-06-18'],
    ['1999-01-01', '2024-11-05'],
  ]) {
    const res = await rpc({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: asked } });
    t.is(res.status, 200);
    t.regex(res.headers.get('mcp-session-id') ?? '', /^[A-Za-z0-9_-]{32}$/);
    const body = await readJson(res);
    t.is(body.id, 'init');
    t.is(body.result.protocolVersion, got);
    t.deepEqual(body.result.serverInfo, { name: 'einvoice-mcp', version: '1.2.0' });
    t.deepEqual(body.result.capabilities, { tools: { listChanged: false } });
  }
  const [row] = await app.ownerDb('mcp_sessions').select('*').limit(1);
  t.regex(row.id_hash, /^[0-9a-f]{64}$/, 'only the hash of the id is stored');
});

test('ids are echoed exactly, 0 and strings included; notifications get 202 and no body; batches answer each request', async (t) => {
  const id = await session();
  const h = { 'Mcp-Session-Id': id };
  t.is((await readJson(await rpc({ jsonrpc: '2.0', id: 0, method: 'ping' }, h))).id, 0);
  t.deepEqual(await readJson(await rpc({ jsonrpc: '2.0', id: 'a-b', method: 'ping' }, h)), {
    jsonrpc: '2.0',
    id: 'a-b',
    result: {},
  });
  const note = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, h);
  t.is(note.status, 202);
  t.is(await note.text(), '');
  const batch = await rpc(
    [
      { jsonrpc: '2.0', id: 7, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'x', method: 'nope' },
      { id: 9, method: 'ping' },
    ],
    h,
  );
  t.is(batch.status, 200);
  const answers = await readJson(batch);
  t.deepEqual(answers, [
    { jsonrpc: '2.0', id: 7, result: {} },
    { jsonrpc: '2.0', id: 'x', error: { code: -32601, message: 'Method not found: nope.' } },
    { jsonrpc: '2.0', id: 9, error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be "2.0".' } },
  ]);
  const version = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { ...h, 'MCP-Protocol-Version': '2020-01-01' });
  t.is(version.status, 400);
  t.is((await readJson(version)).error.code, -32600);
  t.is(
    (await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, { ...h, 'MCP-Protocol-Version': '2025-06-18' })).status,
    200,
  );
  const empty = await rpc([], h);
  t.is(empty.status, 400);
  t.is((await readJson(empty)).error.code, -32600);
});

test('-32700 for bad JSON as HTTP 400; -32601 for an unknown method; -32602 for bad arguments', async (t) => {
  const id = await session();
  const h = { 'Mcp-Session-Id': id };
  const bad = await rpc('{"jsonrpc": "2.0", "id": 1,', h);
  t.is(bad.status, 400);
  t.like(await readJson(bad), { jsonrpc: '2.0', id: null, error: { code: -32700 } });
  t.is((await readJson(await rpc({ jsonrpc: '2.0', id: 2, method: 'resources/list' }, h))).error.code, -32601);
  const call = async (params: unknown) =>
    (await readJson(await rpc({ jsonrpc: '2.0', id: 3, method: 'tools/call', params }, h))).error;
  t.like(await call({}), { code: -32602 });
  t.like(await call({ name: 'no_such_tool' }), {
    code: -32602,
    message: 'Unknown tool: no_such_tool. See tools/list.',
  });
  t.like(await call({ name: 'get_invoice', arguments: [] }), { code: -32602 });
  const invalid = await call({ name: 'get_invoice', arguments: { invoice_id: 'not-a-uuid', extra: 1 } });
  t.is(invalid.code, -32602);
  t.deepEqual(invalid.data.errors, { invoice_id: ['must be a valid uuid'], extra: ['is not an allowed property'] });
});

test('a business error is a tool result with isError and the HTTP code and message', async (t) => {
  const id = await session();
  const missing = '00000000-0000-4000-8000-000000000000';
  const res = await rpc(
    {
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'get_invoice', arguments: { invoice_id: missing } },
    },
    { 'Mcp-Session-Id': id },
  );
  const { result } = await readJson(res);
  const http = await readJson(await app.request(`/api/v1/invoices/${missing}`, { headers: { 'X-API-Key': key } }));
  t.true(result.isError);
  t.is(result.content[0].text, `${http.code}: ${http.message}`);
});

test('a bad or missing key is HTTP 401 with -32001; X-Service-API-Key and Bearer are read too', async (t) => {
  for (const headers of [{ 'X-API-Key': '' }, { 'X-API-Key': `sk_test_${'x'.repeat(32)}` }, { 'X-API-Key': 'nope' }]) {
    const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, headers);
    t.is(res.status, 401);
    t.like(await readJson(res), { id: null, error: { code: -32001 } });
  }
  const service = await rpc(
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
    { 'X-API-Key': '', 'X-Service-API-Key': key },
  );
  t.is(service.status, 200);
  const bearer = await rpc(
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
    { 'X-API-Key': '', Authorization: `Bearer ${key}` },
  );
  t.is(bearer.status, 200);
});

test('sessions: required after initialize (400), unknown (404 -32002), bound to their key, idle over 3600 s gone, DELETE ends them (204)', async (t) => {
  const ping = (h: Record<string, string>) => rpc({ jsonrpc: '2.0', id: 1, method: 'ping' }, h);
  const none = await ping({});
  t.is(none.status, 400);
  t.is((await readJson(none)).error.code, -32002);
  const unknown = await ping({ 'Mcp-Session-Id': 'unknown-session' });
  t.is(unknown.status, 404);
  t.like(await readJson(unknown), { error: { code: -32002 } });

  const id = await session();
  const other = (await seedPlatformTenant(app.ownerDb)).keys.sk_test;
  t.is((await ping({ 'Mcp-Session-Id': id, 'X-API-Key': other })).status, 404, 'another key cannot use the session');
  t.is((await ping({ 'Mcp-Session-Id': id })).status, 200);

  // This session only: the other tests of the file run at the same time on the same database.
  await app
    .ownerDb('mcp_sessions')
    .where({ id_hash: createHash('sha256').update(id).digest('hex') })
    .update({ last_seen_at: app.ownerDb.raw("now() - interval '3601 seconds'") });
  t.is((await ping({ 'Mcp-Session-Id': id })).status, 404, 'idle for more than an hour');

  const live = await session();
  const del = (h: Record<string, string>) =>
    app.request('/mcp/', { method: 'DELETE', headers: { 'X-API-Key': key, ...h } });
  t.is((await del({ 'Mcp-Session-Id': live })).status, 204);
  t.is((await del({ 'Mcp-Session-Id': live })).status, 404);
  t.is((await ping({ 'Mcp-Session-Id': live })).status, 404);
});

test('GET /mcp: discovery JSON, but 405 to an event-stream client; CORS exposes Mcp-Session-Id', async (t) => {
  for (const path of ['/mcp', '/mcp/', '/api/mcp', '/api/mcp/']) {
    const res = await app.request(path);
    t.is(res.status, 200);
    t.deepEqual(await readJson(res), {
      name: 'einvoice-mcp',
      version: '1.2.0',
      protocol: '2024-11-05',
      tools_count: 54,
      capabilities: { tools: { listChanged: false } },
    });
    const sse = await app.request(path, { headers: { Accept: 'text/event-stream', 'X-API-Key': key } });
    t.is(sse.status, 405);
    await sse.arrayBuffer();
  }
  const cors = await app.request('/mcp', {
    method: 'POST',
    headers: { Origin: 'https://agent.example.com', 'X-API-Key': key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }),
  });
  t.regex(cors.headers.get('access-control-expose-headers') ?? '', /mcp-session-id/i);
});

test('GET /mcp/stream: an SSE stream with pings, ended cleanly when the client goes; a key is needed', async (t) => {
  t.is((await app.request('/mcp/stream', { headers: { Accept: 'text/event-stream' } })).status, 401);
  const controller = new AbortController();
  const res = await app.request('/api/mcp/stream', {
    headers: { Accept: 'text/event-stream', 'X-API-Key': key },
    signal: controller.signal,
  });
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/event-stream/);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while ((text.match(/event: ping/g) ?? []).length < 2) text += new TextDecoder().decode((await reader.read()).value);
  t.regex(text, /event: ping\ndata: \{"type":"ping","timestamp":"[^"]+"\}\n\n/);
  controller.abort();
  await reader.closed.catch(() => undefined);
});

test('the MCP rate limit: 60 per minute per key by default, then 429 with -32001 and Retry-After', async (t) => {
  t.deepEqual(DEFAULT_RATE_LIMITS.mcp, { per_minute: 60 });
  t.deepEqual(app.deps.config.rateLimits.mcp, { per_minute: 1000 }, 'RATE_LIMITS overrides it');
  const limited = await startTestApp({ env: { RATE_LIMIT_SCALE: '1', RATE_LIMITS: '{"mcp":{"per_minute":3}}' } });
  try {
    const k = (await seedPlatformTenant(limited.ownerDb)).keys.sk_test;
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await limited.request('/mcp', {
        method: 'POST',
        headers: { 'X-API-Key': k, 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'initialize', params: {} }),
      });
      statuses.push(last.status);
    }
    t.deepEqual(statuses, [200, 200, 200, 429]);
    t.truthy(last?.headers.get('retry-after'));
    t.like(await readJson(last as Response), { error: { code: -32001, data: { code: 'RATE_LIMIT_EXCEEDED' } } });
  } finally {
    await limited.close();
  }
});

test('a user key: tenant tools are unknown; a production key without KYB is refused before any session', async (t) => {
  const user = await seedUser(app.ownerDb);
  const userKey = await seedUserKey(app.ownerDb, user);
  const id = await session(userKey);
  const res = await rpc(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_sub_tenants', arguments: {} } },
    { 'X-API-Key': userKey, 'Mcp-Session-Id': id },
  );
  t.like(await readJson(res), { error: { code: -32602 } });
  const pending = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  const refused = await rpc(
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
    { 'X-API-Key': pending.keys.sk_live },
  );
  t.is(refused.status, 403);
  t.like(await readJson(refused), { error: { code: -32001, data: { code: 'KYC_REQUIRED' } } });
});

test('export links: a tampered token is refused (403); a link stops working once its key is revoked', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  const k = tenant.keys.sk_test;
  const id = await session(k);
  const res = await rpc(
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'export_fec', arguments: { year: 2026 } } },
    { 'X-API-Key': k, 'Mcp-Session-Id': id },
  );
  const link = JSON.parse((await readJson(res)).result.content[0].text);
  const path = new URL(link.url).pathname;
  t.is((await app.request(`${path.slice(0, -3)}xyz`)).status, 403);
  await app
    .ownerDb('api_keys')
    .where({ tenant_id: tenant.tenantId, environment: 'sandbox', kind: 'secret' })
    .update({ status: 'revoked' });
  const revoked = await app.request(path);
  t.is(revoked.status, 403);
  t.is((await readJson(revoked)).code, 'DOWNLOAD_LINK_INVALID');
});
