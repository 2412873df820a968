import test from 'ava';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { connectProvider } from '../../domain/transmission/operations/connect-provider.js';
import { recordInvoiceUpload } from '../../domain/transmission/operations/record-invoice-upload.js';
import { recordProviderEvents } from '../../domain/transmission/operations/record-provider-events.js';
import { generateInvoiceDocumentsJob } from '../../workers/handlers/generate-invoice-documents.js';
import { syncProviderEvents } from '../../workers/handlers/sync-provider-events.js';
import { transmitInvoice } from '../../workers/handlers/transmit-invoice.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { nock } from '../helpers/net.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Production invoices through the SuperPDP adapter, nock standing in for https://api.superpdp.test
 * with the shapes of provider-apis.md §1: the worker handlers are called directly.
 */
const BASE = 'https://api.superpdp.test';
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', SUPERPDP_BASE_URL: BASE, SUPERPDP_TIMEOUT_MS: '2000' } });
});
test.after.always(() => app?.close());
test.afterEach.always(() => nock.cleanAll());

const event = (id: number, invoiceId: number, code: string, extra: Record<string, unknown> = {}) => ({
  id,
  invoice_id: invoiceId,
  status_code: code,
  status_text: code,
  created_at: '2026-11-20T10:00:00Z',
  ...extra,
});

async function productionSetup(): Promise<{ tenant: SeededTenant; connectionId: string }> {
  const tenant = await seedPlatformTenant(app.ownerDb);
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '10.00' });
  const connection = await execute(
    connectProvider,
    { tenant_id: tenant.tenantId, client_id: 'client_1', client_secret: 'secret_1' },
    systemCaller(),
    app.deps,
  );
  return { tenant, connectionId: connection.id };
}

async function submittedInvoice(tenant: SeededTenant) {
  const invoice = await createInvoice(app.request, tenant.keys.sk_live);
  await generateInvoiceDocumentsJob({ tenantId: tenant.tenantId, invoiceId: invoice.id }, app.deps);
  const res = await app.request(
    `/api/v1/invoices/${invoice.id}/submit`,
    postJson({}, { 'X-API-Key': tenant.keys.sk_live }),
  );
  if (res.status !== 200) throw new Error(`submit: ${res.status} ${JSON.stringify(await readJson(res))}`);
  return invoice;
}

const row = (id: string) => app.ownerDb('invoices').where({ id }).first();
const eventNames = async (invoiceId: string) =>
  (await app.ownerDb('events').whereRaw("data->>'id' = ?", [invoiceId]).orderBy('created_at').select('name')).map(
    (e) => e.name,
  );
const sync = (tenant: SeededTenant, connectionId: string) =>
  syncProviderEvents({ tenantId: tenant.tenantId, connectionId }, app.deps);

test.serial(
  'upload (401 → one rotation), api:uploaded, fr:200, fr:205, fr:212: paid with a payment entry',
  async (t) => {
    const { tenant, connectionId } = await productionSetup();
    const invoice = await submittedInvoice(tenant);
    let uploaded = 0;
    const scope = nock(BASE)
      .post('/oauth2/token', (body) => body.grant_type === 'client_credentials' && body.client_secret === 'secret_1')
      .reply(200, { access_token: 'at_1', token_type: 'bearer', expires_in: 1800, refresh_token: 'rt_1' })
      .get('/v1.beta/invoices')
      .query({ direction: 'out', order: 'desc', limit: '100' })
      .matchHeader('authorization', 'Bearer at_1')
      .reply(200, { data: [], count: 0, has_after: false, has_before: false })
      .post('/v1.beta/invoices')
      .query({ external_id: invoice.id, processing_rule: 'B2B' })
      .matchHeader('authorization', 'Bearer at_1')
      .reply(401, { http_status_code: 401, message: 'token expired' })
      .post('/oauth2/token', (body) => body.grant_type === 'refresh_token' && body.refresh_token === 'rt_1')
      .reply(200, { access_token: 'at_2', token_type: 'bearer', expires_in: 1800, refresh_token: 'rt_2' })
      .post('/v1.beta/invoices')
      .query({ external_id: invoice.id, processing_rule: 'B2B' })
      .matchHeader('authorization', 'Bearer at_2')
      .matchHeader('content-type', 'application/pdf')
      .reply(200, () => {
        uploaded++;
        return {
          id: 8812,
          company_id: 41,
          created_at: '2026-11-20T10:00:00Z',
          direction: 'out',
          external_id: invoice.id,
          processing_rule: 'B2B',
          events: [event(90211, 8812, 'api:uploaded')],
        };
      });
    await transmitInvoice({ tenantId: tenant.tenantId, invoiceId: invoice.id }, app.deps);
    scope.done();
    t.is(uploaded, 1);
    t.like(await row(invoice.id), { status: 'submitted', pdp_id: '8812', provider_connection_id: connectionId });
    const connection = await app.ownerDb('provider_connections').where({ id: connectionId }).first();
    t.is(connection.token_version, 2, 'two tokens stored: client credentials, then the rotation');
    t.false(JSON.stringify(connection).includes('rt_2'), 'tokens are sealed at rest');

    // A retried job changes nothing: pdp_id is set, no call is made (nock would refuse it).
    t.like(await transmitInvoice({ tenantId: tenant.tenantId, invoiceId: invoice.id }, app.deps), {
      skipped: 'already uploaded as 8812',
    });

    const events = nock(BASE)
      .get('/v1.beta/invoice_events')
      .query({ limit: '100' })
      .matchHeader('authorization', 'Bearer at_2')
      .reply(200, { data: [event(90211, 8812, 'api:uploaded'), event(90212, 8812, 'fr:200')], has_after: true })
      .get('/v1.beta/invoice_events')
      .query({ limit: '100', starting_after_id: '90212' })
      .reply(200, { data: [event(90213, 9999, 'fr:200'), event(90214, 8812, 'fr:205')], has_after: false });
    t.like(await sync(tenant, connectionId), { applied: 2 });
    events.done();
    t.like(await row(invoice.id), { status: 'completed' });
    t.is((await app.ownerDb('provider_connections').where({ id: connectionId }).first()).events_cursor, '90214');

    // KYB review (403): retryable, nothing moves.
    nock(BASE).get('/v1.beta/invoice_events').query(true).reply(403, { message: 'company under review' });
    await t.throwsAsync(sync(tenant, connectionId), { message: /under review/ });
    t.is((await app.ownerDb('provider_connections').where({ id: connectionId }).first()).events_cursor, '90214');

    const paid = nock(BASE)
      .get('/v1.beta/invoice_events')
      .query({ limit: '100', starting_after_id: '90214' })
      .reply(200, { data: [event(90215, 8812, 'fr:212', { created_at: '2026-11-21T09:30:00Z' })], has_after: false });
    await sync(tenant, connectionId);
    paid.done();
    const after = await row(invoice.id);
    t.is(after.status, 'paid');
    const entry = await app
      .ownerDb('fiscal_entries')
      .where({ tenant_id: tenant.tenantId, environment: 'production', entry_type: 'payment' })
      .first();
    t.is(entry.entity_id, after.payment_id);
    t.like(JSON.parse(entry.canonical_data), {
      invoice_id: invoice.id,
      direction: 'outgoing',
      payment_date: '2026-11-21',
      amount: invoice.total_ttc.toFixed(2),
      payment_reference: 'pdp:8812:event:90215',
    });
    t.deepEqual(await eventNames(invoice.id), [
      'invoice.created',
      'invoice.transmitted',
      'invoice.validated',
      'invoice.paid',
    ]);

    const read = await readJson(
      await app.request(`/api/v1/invoices/${invoice.id}`, { headers: { 'X-API-Key': tenant.keys.sk_live } }),
    );
    t.deepEqual(
      read.data.lifecycle_events.map((e: { code: string }) => e.code),
      ['api:uploaded', 'fr:200', 'fr:205', 'fr:212'],
    );
    t.like(read.data, { pdp_id: '8812', status: 'paid' });
  },
);

test.serial(
  'a late fr:213 rejects a transmitted invoice with its status_message; a 400 pre-check fails another',
  async (t) => {
    const { tenant, connectionId } = await productionSetup();
    const late = await submittedInvoice(tenant);
    const refused = await submittedInvoice(tenant);
    nock(BASE)
      .post('/oauth2/token')
      .reply(200, { access_token: 'at_9', expires_in: 1800 })
      .get('/v1.beta/invoices')
      .query(true)
      .times(2)
      .reply(200, { data: [], has_after: false, has_before: false })
      .post('/v1.beta/invoices')
      .query({ external_id: late.id, processing_rule: 'B2B' })
      .reply(200, { id: 7001, company_id: 41, created_at: '2026-11-20T10:00:00Z', direction: 'out', events: [] })
      .post('/v1.beta/invoices')
      .query({ external_id: refused.id, processing_rule: 'B2B' })
      .reply(400, {
        code: 12,
        http_status_code: 400,
        message: 'pre-check: receiver address does not exist in peppol directory',
      });
    await transmitInvoice({ tenantId: tenant.tenantId, invoiceId: late.id }, app.deps);
    const outcome = await transmitInvoice({ tenantId: tenant.tenantId, invoiceId: refused.id }, app.deps);
    t.like(outcome, { status: 'failed', retry: false });
    t.like(await row(refused.id), {
      status: 'failed',
      status_message:
        'The e-invoicing provider refused the invoice: pre-check: receiver address does not exist in peppol directory',
      pdp_id: null,
    });

    nock(BASE)
      .get('/v1.beta/invoice_events')
      .query(true)
      .reply(200, { data: [event(1, 7001, 'api:uploaded'), event(2, 7001, 'fr:200')], has_after: false });
    await sync(tenant, connectionId);
    t.like(await row(late.id), { status: 'transmitted' });
    nock(BASE)
      .get('/v1.beta/invoice_events')
      .query({ limit: '100', starting_after_id: '2' })
      .reply(200, {
        data: [
          event(3, 7001, 'fr:213', {
            details: [
              { reason: 'REJ_SEMAN', notes: [{ content_code: 'fr:213', contents: [{ content: 'BR-FR-12 fails' }] }] },
            ],
          }),
        ],
        has_after: false,
      });
    await sync(tenant, connectionId);
    t.like(await row(late.id), { status: 'rejected', status_message: 'fr:213 Rejetée: REJ_SEMAN: BR-FR-12 fails' });
    const rejected = await app
      .ownerDb('events')
      .where({ name: 'invoice.rejected' })
      .whereRaw("data->>'id' = ?", [late.id])
      .first();
    t.is(rejected.data.status_message, 'fr:213 Rejetée: REJ_SEMAN: BR-FR-12 fails');

    // A failed invoice may be submitted again (resubmission).
    const again = await app.request(
      `/api/v1/invoices/${refused.id}/submit`,
      postJson({}, { 'X-API-Key': tenant.keys.sk_live }),
    );
    t.is(again.status, 200);
    t.like(await row(refused.id), { status: 'submitted', status_message: null });
  },
);

test.serial(
  'events a sync reads before the upload is recorded (a worker killed in between) are applied when it is',
  async (t) => {
    const { tenant, connectionId } = await productionSetup();
    const invoice = await submittedInvoice(tenant);
    const providerEvent = (id: string, code: string) => ({
      id,
      invoiceId: '9901',
      statusCode: code,
      statusText: code,
      reason: null,
      createdAt: '2026-11-20T10:00:00Z',
    });
    // the provider took the upload (api:uploaded 5000) but the worker died before recording 9901;
    // meanwhile a sync reads fr:200 and fr:205 of 9901 and moves the cursor past them
    const page = await execute(
      recordProviderEvents,
      {
        connection_id: connectionId,
        events: [providerEvent('5001', 'fr:200'), providerEvent('5002', 'fr:205')],
        cursor: '5002',
      },
      systemCaller(tenant.tenantId),
      app.deps,
    );
    t.is(page.applied, 0, 'no invoice of ours has that id yet');
    t.like(await row(invoice.id), { status: 'submitted', pdp_id: null });
    // the restarted worker finds the upload and records it, with the upload's own event
    await execute(
      recordInvoiceUpload,
      { invoice_id: invoice.id, outcome: 'accepted', pdp_id: '9901', events: [providerEvent('5000', 'api:uploaded')] },
      systemCaller(tenant.tenantId),
      app.deps,
    );
    const after = await row(invoice.id);
    t.like(after, { status: 'completed', pdp_id: '9901' });
    t.deepEqual(
      after.lifecycle_events.map((e: { code: string }) => e.code),
      ['api:uploaded', 'fr:200', 'fr:205'],
    );
    t.deepEqual(await eventNames(invoice.id), ['invoice.created', 'invoice.transmitted', 'invoice.validated']);
  },
);

test.serial(
  'an answer that is not JSON (an HTML page, a body cut short) counts as unreachable: retried, then reported',
  async (t) => {
    const { tenant } = await productionSetup();
    const invoice = await submittedInvoice(tenant);
    nock(BASE)
      .post('/oauth2/token')
      .reply(200, { access_token: 'at_html', expires_in: 1800 })
      .get('/v1.beta/invoices')
      .query(true)
      .reply(200, '{"data": [', { 'content-type': 'application/json' });
    const cut = await t.throwsAsync(transmitInvoice({ tenantId: tenant.tenantId, invoiceId: invoice.id }, app.deps));
    t.is((cut as { code?: string }).code, 'PROVIDER_UNAVAILABLE');
    t.regex(cut.message, /the invoice list is not JSON/);
    nock(BASE)
      .get('/v1.beta/invoices')
      .query(true)
      .reply(200, { data: [], has_after: false, has_before: false })
      .post('/v1.beta/invoices')
      .query(true)
      .reply(200, '<html><body>502 Bad Gateway</body></html>', { 'content-type': 'text/html' });
    const html = await t.throwsAsync(transmitInvoice({ tenantId: tenant.tenantId, invoiceId: invoice.id }, app.deps));
    t.is((html as { code?: string }).code, 'PROVIDER_UNAVAILABLE');
    t.regex(html.message, /the upload is not JSON \(HTTP 200: <html>/);
    // each counted as an attempt, so a lasting fault ends the invoice failed with this reason
    t.like(await row(invoice.id), { status: 'submitted', transmission_attempts: 2, pdp_id: null });
  },
);
