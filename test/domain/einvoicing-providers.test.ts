import test from 'ava';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { ProviderAccountRef } from '../../domain/transmission/einvoicing-provider.js';
import { connectProvider } from '../../domain/transmission/operations/connect-provider.js';
import { SimulatedProvider } from '../../domain/transmission/simulated-provider.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { nock } from '../helpers/net.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

/** The port's reading and status methods, which the incoming-invoice sync consumes, on both implementations. */
const BASE = 'https://api.superpdp.test';
let t0: TestDeps;
test.before(async () => {
  t0 = await createTestDeps({ env: { SUPERPDP_BASE_URL: BASE } });
});
test.after.always(() => t0?.close());
test.afterEach.always(() => nock.cleanAll());

async function superpdpAccount(): Promise<ProviderAccountRef> {
  const tenant = await seedPlatformTenant(t0.ownerDb);
  const c = await execute(
    connectProvider,
    { tenant_id: tenant.tenantId, client_id: 'cid', client_secret: 'csecret' },
    systemCaller(),
    t0.deps,
  );
  return { id: c.id, tenantId: tenant.tenantId, environment: 'production' };
}

test.serial('SuperPDP: inbox pages by cursor, original download sniffed, a refusal sent with its reason', async (t) => {
  const account = await superpdpAccount();
  const provider = t0.deps.einvoicingProvider;
  const scope = nock(BASE)
    .post('/oauth2/token', (b) => b.grant_type === 'client_credentials' && b.client_id === 'cid')
    .reply(200, { access_token: 'at_x', expires_in: 1800 })
    .get('/v1.beta/invoices')
    .query({ direction: 'in', order: 'asc', limit: '2' })
    .reply(200, {
      data: [{ id: 11, company_id: 1, direction: 'in', created_at: '2026-11-20T08:00:00Z' }],
      has_after: true,
    })
    .get('/v1.beta/invoices')
    .query({ direction: 'in', order: 'asc', limit: '2', starting_after_id: '11' })
    .reply(200, { data: [], has_after: false })
    .get('/v1.beta/invoices/11')
    .query({ format: 'original' })
    .reply(200, '<?xml version="1.0"?><Invoice/>', { 'content-type': 'application/octet-stream' })
    .post('/v1.beta/invoice_events', {
      invoice_id: 11,
      status_code: 'fr:210',
      details: [
        { reason: 'NON_CONFORME', notes: [{ content_code: 'fr:210', contents: [{ content: 'Prix erroné' }] }] },
      ],
    })
    .matchHeader('authorization', 'Bearer at_x')
    .reply(200, {
      id: 77,
      invoice_id: 11,
      status_code: 'fr:210',
      status_text: 'Refused',
      created_at: '2026-11-20T09:00:00Z',
    });
  const first = await provider.listIncoming(account, null, 2);
  t.deepEqual(first, { items: [{ pdpId: '11', createdAt: '2026-11-20T08:00:00Z' }], hasAfter: true });
  t.deepEqual(await provider.listIncoming(account, '11', 2), { items: [], hasAfter: false });
  const original = await provider.downloadOriginal(account, '11');
  t.is(original.contentType, 'application/xml');
  t.true(original.bytes.toString().includes('<Invoice/>'));
  const sent = await provider.sendStatus(account, {
    invoiceId: '11',
    statusCode: 'fr:210',
    reason: { code: 'NON_CONFORME', text: 'Prix erroné' },
  });
  t.like(sent, { id: '77', invoiceId: '11', statusCode: 'fr:210' });
  scope.done();

  nock(BASE).post('/v1.beta/invoice_events').reply(400, { http_status_code: 400, message: 'missing reason' });
  await t.throwsAsync(provider.sendStatus(account, { invoiceId: '11', statusCode: 'fr:210' }), {
    message: /missing reason/,
  });
});

test.serial('SuperPDP: a payment sent (fr:211) carries its reference as a note; none without one', async (t) => {
  const account = await superpdpAccount();
  const provider = t0.deps.einvoicingProvider;
  const event = (id: number) => ({
    id,
    invoice_id: 12,
    status_code: 'fr:211',
    status_text: 'Payment sent',
    created_at: '2026-11-20T09:00:00Z',
  });
  const scope = nock(BASE)
    .post('/oauth2/token')
    .reply(200, { access_token: 'at_p', expires_in: 1800 })
    .post('/v1.beta/invoice_events', {
      invoice_id: 12,
      status_code: 'fr:211',
      details: [{ notes: [{ content_code: 'fr:211', contents: [{ content: 'VIR-2026-0042' }] }] }],
    })
    .reply(200, event(78))
    .post('/v1.beta/invoice_events', { invoice_id: 12, status_code: 'fr:211' })
    .reply(200, event(79));
  const sent = await provider.sendStatus(account, {
    invoiceId: '12',
    statusCode: 'fr:211',
    paymentReference: 'VIR-2026-0042',
  });
  t.like(sent, { id: '78', statusCode: 'fr:211' });
  t.like(await provider.sendStatus(account, { invoiceId: '12', statusCode: 'fr:211' }), { id: '79' });
  scope.done();
});

test.serial(
  'simulator: an empty inbox, a status sent joins the event stream, a file that is no PDF is refused',
  async (t) => {
    const tenant = await seedPlatformTenant(t0.ownerDb);
    const connection = await t0
      .ownerDb('provider_connections')
      .insert({ tenant_id: tenant.tenantId, environment: 'sandbox', provider: 'simulator' })
      .returning('id');
    const account: ProviderAccountRef = { id: connection[0].id, tenantId: tenant.tenantId, environment: 'sandbox' };
    const simulator = new SimulatedProvider(t0.deps.db, t0.deps.clock, 0);
    t.deepEqual(await simulator.listIncoming(account, null, 100), { items: [], hasAfter: false });
    const refused = await simulator.upload(account, {
      externalId: 'x',
      processingRule: 'B2B',
      file: { bytes: Buffer.from('not a pdf'), contentType: 'application/pdf', filename: 'x.pdf' },
    });
    t.is(refused.outcome, 'refused');
    const accepted = await simulator.upload(account, {
      externalId: 'inv-1',
      processingRule: 'B2B',
      file: { bytes: Buffer.from('%PDF-1.7 test'), contentType: 'application/pdf', filename: 'x.pdf' },
    });
    if (accepted.outcome !== 'accepted') return t.fail();
    t.is(await simulator.findUploaded(account, 'inv-1'), accepted.pdpId);
    t.is(await simulator.findUploaded(account, 'inv-2'), null);
    t.is((await simulator.downloadOriginal(account, accepted.pdpId)).bytes.toString(), '%PDF-1.7 test');
    const sent = await simulator.sendStatus(account, { invoiceId: accepted.pdpId, statusCode: 'fr:212' });
    const page = await simulator.listEvents(account, null, 100);
    t.deepEqual(
      page.items.map((e) => e.statusCode),
      ['api:uploaded', 'fr:200', 'fr:202', 'fr:205', 'fr:212'],
    );
    t.is(page.items[4].id, sent.id);
    const rest = await simulator.listEvents(account, page.items[1].id, 2);
    t.deepEqual(
      rest.items.map((e) => e.statusCode),
      ['fr:202', 'fr:205'],
    );
    t.true(rest.hasAfter);
  },
);
