import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import test from 'ava';
import { itemsFor } from '../helpers/credit-notes.js';
import { validateAll } from '../helpers/einvoice-validator.js';
import { readJson } from '../helpers/http.js';
import { seedPlatformTenant, seedUser, seedUserKey } from '../helpers/identities.js';
import { BUYER_SIRET, invoiceBody, SELLER_SIRET } from '../helpers/invoice-bodies.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

// biome-ignore lint/suspicious/noExplicitAny: tests read tool results loosely
type Json = any;

/**
 * The MCP server driven by the official SDK's Client over its Streamable HTTP transport, as an
 * agent would: connect, list, call one tool of every group, ping, end the session. Every effect a
 * tool claims is read back over the HTTP API.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

async function connect(
  key: string,
  path = '/mcp/',
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(`${app.url}${path}`), {
    requestInit: { headers: { 'X-API-Key': key } },
  });
  const client = new Client({ name: 'einvoice-test-agent', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** A tool's JSON answer; fails the test on an error result. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Json> {
  const result = (await client.callTool({ name, arguments: args })) as Json;
  if (result.isError) throw new Error(`${name} failed: ${result.content[0].text}`);
  return JSON.parse(result.content[0].text);
}

const party = (name: string, siret: string) => ({
  name,
  siret,
  address: '1 rue de la Paix',
  city: 'Paris',
  postal_code: '75002',
});

test.serial(
  'a tenant key sees 54 tools, a user key 16; one tool of every group works, with effects visible over HTTP',
  async (t) => {
    const tenant = await seedPlatformTenant(app.ownerDb);
    const key = tenant.keys.sk_test;
    const http = (path: string, init: RequestInit = {}) =>
      app.request(path, { ...init, headers: { 'X-API-Key': key, ...(init.headers ?? {}) } });
    const { client, transport } = await connect(key);
    t.is(client.getServerVersion()?.version, '1.2.0');
    t.truthy(transport.sessionId, 'initialize issued a session id');

    const { tools } = await client.listTools();
    t.is(tools.length, 54);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    t.true(byName.get('create_invoice')?.description?.includes('BILLABLE'));
    t.is(byName.get('delete_sub_tenant')?.annotations?.destructiveHint, true);
    t.is(byName.get('get_invoice')?.annotations?.readOnlyHint, true);
    t.is((byName.get('list_invoices')?.inputSchema.properties as Json)?.per_page?.default, 15);

    // Invoices: create, read back over HTTP, download through the link, validate the file.
    const invoice = await call(client, 'create_invoice', {
      invoice_number: `MCP-${Date.now()}`,
      issue_date: '2026-11-20',
      due_date: '2026-12-20',
      seller: party('Vendeur SAS', SELLER_SIRET),
      buyer: party('Acheteur SARL', BUYER_SIRET),
      lines: [
        { description: 'Conseil', quantity: 3, unit_price: 333.33 },
        { description: 'Livre', quantity: 2, unit_price: 19.99, vat_rate: 5.5 },
      ],
    });
    const read = await http(`/api/v1/invoices/${invoice.id}`);
    t.is(read.status, 200);
    const view = (await readJson(read)).data;
    t.is(view.total_ht, 1039.97);
    t.is(view.total_tax, 202.2);
    const link = await call(client, 'download_invoice', { invoice_id: invoice.id, format: 'facturx' });
    const file = await app.request(new URL(link.url).pathname + new URL(link.url).search);
    t.is(file.status, 200);
    const path = join(tmpdir(), `mcp-invoice-${invoice.id}.pdf`);
    await writeFile(path, Buffer.from(await file.arrayBuffer()));
    const report = validateAll([path]);
    t.true(report.valid, JSON.stringify(report.files[0]?.errors ?? report));
    const listed = await call(client, 'list_invoices', {});
    t.is(listed.meta.per_page, 15);
    t.true(listed.data.some((i: Json) => i.id === invoice.id));

    // Signatures.
    const signature = await call(client, 'create_signature', {
      document_name: 'contract.pdf',
      document_base64: minimalPdf().toString('base64'),
      signer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
    });
    t.is((await http(`/api/v1/signatures/${signature.id}`)).status, 200);

    // Credit notes.
    const creditNote = await call(client, 'create_credit_note', {
      invoice_id: invoice.id,
      reason: 'Geste commercial',
      items: itemsFor(view, 0.5),
    });
    const note = await http(`/api/v1/credit-notes/${creditNote.id}`);
    t.is(note.status, 200);
    t.is((await readJson(note)).data.invoice_id, invoice.id);

    // Fiscal, system, validation, account, audit.
    t.is(typeof (await call(client, 'get_kill_switch_status')).active, 'boolean');
    // The exports answer links; the FEC behind the link is the one the HTTP route gives, pipe-separated.
    const fecLink = await call(client, 'export_fec', { year: 2026 });
    const fromLink = await app.request(new URL(fecLink.url).pathname);
    t.is(fromLink.status, 200);
    t.regex(fromLink.headers.get('content-type') ?? '', /^text\/plain/);
    const fec = await fromLink.text();
    t.is(fec, await (await http('/api/v1/tenant/fiscal/fec?year=2026&format=pipe')).text());
    t.true(fec.split('\r\n')[0].includes('|'));
    const archive = await app.request(new URL((await call(client, 'export_forensic')).url).pathname);
    t.is(archive.status, 200);
    t.is(
      Buffer.from(await archive.arrayBuffer())
        .subarray(0, 2)
        .toString(),
      'PK',
    );
    t.is((await call(client, 'health_check')).status, 'ok');
    t.like(await call(client, 'validate_api_key'), { valid: true, owner: 'tenant', environment: 'sandbox' });
    t.like(await call(client, 'validate_siret', { siret: SELLER_SIRET }), {
      valid: true,
      siren: SELLER_SIRET.slice(0, 9),
    });
    t.like(await call(client, 'validate_vat', { vat_number: 'FR00123456789' }), { valid: false });
    t.truthy(await call(client, 'get_balance'));
    const trail = await call(client, 'get_audit_trail', { entity_type: 'invoice', entity_id: invoice.id });
    t.is(trail.data[0].action, 'invoice.created');
    t.true(trail.integrity_valid);

    // Tenant, billing, statistics, sub-tenants, incoming.
    await call(client, 'update_tenant_profile', { name: 'Renamed by an agent' });
    t.is((await readJson(await http('/api/v1/tenant/me'))).data.name, 'Renamed by an agent');
    t.truthy(await call(client, 'get_billing_usage'));
    t.truthy(await call(client, 'get_stats_overview'));
    const sub = await call(client, 'create_sub_tenant', { external_id: `ext-${Date.now()}`, name: 'Client agent' });
    t.is((await http(`/api/v1/tenant/sub-tenants/${sub.id}`)).status, 200);
    t.is((await call(client, 'find_sub_tenant_by_external_id', { external_id: sub.external_id })).id, sub.id);
    t.deepEqual((await call(client, 'list_incoming_invoices')).data, []);

    t.deepEqual(await client.ping(), {});
    await transport.terminateSession();
    // The ended session is gone: the same id now answers 404 with -32002.
    const after = await app.request('/mcp', {
      method: 'POST',
      headers: {
        'X-API-Key': key,
        'Mcp-Session-Id': transport.sessionId ?? 'gone',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    t.is(after.status, 404);
    t.is((await readJson(after)).error.code, -32002);
    await client.close();
  },
);

test.serial('a user key reaches the 16 base tools, under /api/mcp too', async (t) => {
  const user = await seedUser(app.ownerDb);
  const key = await seedUserKey(app.ownerDb, user);
  const { client } = await connect(key, '/api/mcp');
  const { tools } = await client.listTools();
  t.is(tools.length, 16);
  t.deepEqual([...new Set(tools.map((tool) => tool.name))].sort(), [
    'cancel_signature',
    'create_invoice',
    'create_signature',
    'download_invoice',
    'download_signed',
    'get_audit_trail',
    'get_balance',
    'get_invoice',
    'get_signature',
    'health_check',
    'list_invoices',
    'list_signatures',
    'send_reminder',
    'validate_api_key',
    'validate_siret',
    'validate_vat',
  ]);
  t.like(await call(client, 'validate_api_key'), { owner: 'user' });
  // A tenant tool does not exist for a user's key.
  const refused = await t.throwsAsync(client.callTool({ name: 'get_tenant_profile', arguments: {} }));
  t.regex(refused?.message ?? '', /Unknown tool/);
  await client.close();
});

test.serial(
  'billable and blocked calls fail as over HTTP: no balance in production, then the kill switch',
  async (t) => {
    const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
    const { client } = await connect(tenant.keys.sk_live);
    const args = (n: string) => ({
      invoice_number: n,
      issue_date: '2026-11-20',
      seller: party('Vendeur SAS', SELLER_SIRET),
      buyer: party('Acheteur SARL', BUYER_SIRET),
      lines: [{ description: 'Conseil', quantity: 1, unit_price: 100 }],
    });
    const poor = (await client.callTool({ name: 'create_invoice', arguments: args('PROD-1') })) as Json;
    t.true(poor.isError);
    t.regex(poor.content[0].text, /^INSUFFICIENT_BALANCE: /);
    const [{ n }] = await app.ownerDb('invoices').where({ tenant_id: tenant.tenantId }).count({ n: '*' });
    t.is(Number(n), 0, 'nothing written');

    const { client: sandbox } = await connect(tenant.keys.sk_test);
    t.true((await call(sandbox, 'activate_kill_switch', { reason: 'Suspected tampering' })).active);
    const blocked = (await sandbox.callTool({ name: 'create_invoice', arguments: args('SBX-1') })) as Json;
    t.true(blocked.isError);
    const http = await app.request('/api/v1/invoices', {
      method: 'POST',
      headers: { 'X-API-Key': tenant.keys.sk_test, 'Content-Type': 'application/json' },
      body: JSON.stringify(invoiceBody()),
    });
    t.is(http.status, 503);
    const refusal = await readJson(http);
    t.is(blocked.content[0].text, `${refusal.code}: ${refusal.message}`);
    t.false((await call(sandbox, 'deactivate_kill_switch', { reason: 'Checked' })).active);
    t.truthy(await call(sandbox, 'create_invoice', args('SBX-2')));
    await client.close();
    await sandbox.close();
  },
);
