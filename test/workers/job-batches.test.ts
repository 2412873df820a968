import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { auditTrailIntact, readAuditTrail } from '../../domain/audit/audit-trail.js';
import { listInvoiceDocuments } from '../../domain/invoicing/document-store.js';
import type { GeneratedDocuments } from '../../domain/invoicing/generated-documents.js';
import { FAIR_SHARE_HALF_LIFE_MS, FAIR_SHARE_STEP, FairShare } from '../../domain/shared/fair-share.js';
import { deliverWebhookBatch } from '../../workers/handlers/deliver-webhook.js';
import { dispatchEventBatch } from '../../workers/handlers/dispatch-event.js';
import { generateInvoiceDocumentsBatch } from '../../workers/handlers/generate-invoice-documents.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

/**
 * The workers' batches: many jobs, of several tenants, worked in one transaction, each exactly as a
 * job of its own would be. No worker runs: the batches are called by hand.
 */
let app: TestApp;
let first: SeededTenant;
let second: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ALLOW_PRIVATE_URLS: 'true' } });
  first = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  second = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

test.serial(
  'a batch of two tenants’ invoices: each gets its files and one audit entry; a ready one is skipped',
  async (t) => {
    const formats = ['facturx', 'ubl', 'cii'] as const;
    const mine = await Promise.all(
      formats.map((output_format) => createInvoice(app.request, first.keys.sk_test, { output_format })),
    );
    const theirs = await createInvoice(app.request, second.keys.sk_test, { output_format: 'facturx' });
    const jobs = [
      ...mine.map((i) => ({ tenantId: first.tenantId, invoiceId: i.id })),
      { tenantId: second.tenantId, invoiceId: theirs.id },
    ];

    const outcomes = (await generateInvoiceDocumentsBatch(jobs, app.deps)) as GeneratedDocuments[];
    t.deepEqual(
      outcomes.map((o) => [o.id, o.documents_status]),
      jobs.map((j) => [j.invoiceId, 'ready']),
    );
    const expectedKinds = { facturx: ['cii', 'facturx'], ubl: ['pdf', 'ubl'], cii: ['cii', 'pdf'] };
    for (const [i, invoice] of [...mine, theirs].entries()) {
      const format = i < 3 ? formats[i] : 'facturx';
      const files = await listInvoiceDocuments(app.ownerDb, invoice.id);
      t.deepEqual(files.map((f) => f.kind).sort(), expectedKinds[format], `${format}`);
      t.deepEqual(
        files.map((f) => f.sha256).sort(),
        outcomes[i].files.map((f) => f.sha256).sort(),
        'the outcome names the stored files',
      );
      const row = await app.ownerDb('invoices').where({ id: invoice.id }).first();
      t.is(row.documents_status, 'ready');
      const trail = await readAuditTrail(app.ownerDb, 'invoice', invoice.id);
      t.deepEqual(
        trail.map((e) => e.action),
        ['invoice.created', 'invoice.documents_generated'],
      );
      t.true(auditTrailIntact('invoice', invoice.id, trail));
    }

    // Again, with a new invoice among them: only the new one is rendered; nothing is written twice.
    const fresh = await createInvoice(app.request, first.keys.sk_test, {});
    const again = (await generateInvoiceDocumentsBatch(
      [...jobs, { tenantId: first.tenantId, invoiceId: fresh.id }],
      app.deps,
    )) as GeneratedDocuments[];
    t.deepEqual(
      again.map((o) => o.documents_status),
      ['skipped', 'skipped', 'skipped', 'skipped', 'ready'],
    );
    t.deepEqual(
      (await readAuditTrail(app.ownerDb, 'invoice', theirs.id)).map((e) => e.action),
      ['invoice.created', 'invoice.documents_generated'],
    );
  },
);

test.serial(
  'a job naming another tenant’s invoice reaches nothing: missing, and the invoice stays pending',
  async (t) => {
    const theirs = await createInvoice(app.request, second.keys.sk_test, {});
    const mine = await createInvoice(app.request, first.keys.sk_test, {});
    const outcomes = (await generateInvoiceDocumentsBatch(
      [
        { tenantId: first.tenantId, invoiceId: theirs.id },
        { tenantId: first.tenantId, invoiceId: randomUUID() },
        { tenantId: first.tenantId, invoiceId: mine.id },
      ],
      app.deps,
    )) as GeneratedDocuments[];
    t.deepEqual(
      outcomes.map((o) => o.documents_status),
      ['missing', 'missing', 'ready'],
    );
    t.is((await app.ownerDb('invoices').where({ id: theirs.id }).first()).documents_status, 'pending');
    t.deepEqual(await listInvoiceDocuments(app.ownerDb, theirs.id), []);
  },
);

test.serial('a batch of events of two tenants: one delivery per subscribed endpoint, each event once', async (t) => {
  for (const tenant of [first, second]) {
    const res = await app.request('/api/v1/tenant/me', {
      method: 'PUT',
      headers: { 'X-Tenant-Key': tenant.keys.sk_test, 'Content-Type': 'application/json' },
      body: JSON.stringify({ webhook_url: `https://hooks.example.com/${tenant.tenantId}` }),
    });
    t.is(res.status, 200);
  }
  const mine = await createInvoice(app.request, first.keys.sk_test, {});
  const theirs = await createInvoice(app.request, second.keys.sk_test, {});
  const eventOf = async (invoiceId: string) =>
    (await app.ownerDb('events').where({ name: 'invoice.created' }).whereRaw("data->>'id' = ?", [invoiceId]).first())!;
  const [a, b] = [await eventOf(mine.id), await eventOf(theirs.id)];
  const jobs = [
    { tenantId: first.tenantId, eventId: a.id },
    { tenantId: second.tenantId, eventId: b.id },
    { tenantId: first.tenantId, eventId: b.id }, // another tenant's event: reaches nothing
  ];
  const outcomes = (await dispatchEventBatch(jobs, app.deps)) as { deliveries: number; dispatched_at: string | null }[];
  t.deepEqual(
    outcomes.map((o) => o.deliveries),
    [1, 1, 0],
  );
  t.is(outcomes[2].dispatched_at, null, 'the foreign job learns nothing of the event');
  const deliveries = await app
    .ownerDb('webhook_deliveries')
    .whereIn('event_id', [a.id, b.id])
    .select('event_id', 'tenant_id');
  t.deepEqual(
    deliveries.map((d) => [d.event_id, d.tenant_id]).sort(),
    [
      [a.id, first.tenantId],
      [b.id, second.tenantId],
    ].sort(),
  );
  const queued = await app.ownerDb.raw(
    "select data->>'deliveryId' as id from pgboss.job where name = 'deliver-webhook' and data->>'tenantId' = any(?)",
    [[first.tenantId, second.tenantId]],
  );
  t.is(queued.rows.length, 2, 'one first attempt per delivery');

  const again = (await dispatchEventBatch(jobs, app.deps)) as { deliveries: number }[];
  t.deepEqual(
    again.map((o) => o.deliveries),
    [0, 0, 0],
    'dispatched once',
  );
});

type DeliveryJob = { tenantId: string; deliveryId: string; attempt: number };

/**
 * A tenant whose webhook URL is `receiverUrl`, with one invoice per number created and their
 * events dispatched: the first attempts of their deliveries, as queued (oldest first).
 */
async function queueDeliveries(
  t: ExecutionContext,
  tenant: SeededTenant,
  receiverUrl: string,
  numbers: readonly string[],
): Promise<DeliveryJob[]> {
  const res = await app.request('/api/v1/tenant/me', {
    method: 'PUT',
    headers: { 'X-Tenant-Key': tenant.keys.sk_test, 'Content-Type': 'application/json' },
    body: JSON.stringify({ webhook_url: `${receiverUrl}/hook` }),
  });
  t.is(res.status, 200);
  for (const number of numbers) await createInvoice(app.request, tenant.keys.sk_test, { invoice_number: number });
  const events = await app.ownerDb('events').where({ tenant_id: tenant.tenantId, name: 'invoice.created' });
  await dispatchEventBatch(
    events.map((e) => ({ tenantId: tenant.tenantId, eventId: e.id })),
    app.deps,
  );
  const queued = await app.ownerDb.raw(
    "select data from pgboss.job where name = 'deliver-webhook' and data->>'tenantId' = ? order by created_on",
    [tenant.tenantId],
  );
  return queued.rows.map((r: { data: DeliveryJob }) => r.data);
}

test.serial(
  'a batch of deliveries: sent at once, each attempt recorded as alone, a failure retried alone',
  async (t) => {
    const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
    const receiver = await startReceiver((request) =>
      request.rawBody.includes('FAIL-') ? { status: 500 } : { status: 204 },
    );
    try {
      const jobs = await queueDeliveries(t, tenant, receiver.url, ['OK-1', 'FAIL-2', 'OK-3']);
      t.is(jobs.length, 3);

      const outputs = (await deliverWebhookBatch(jobs, app.deps)) as { success: boolean; recorded: boolean }[];
      t.is(receiver.requests.length, 3);
      t.deepEqual(
        outputs.map((o) => o.recorded),
        [true, true, true],
      );
      const deliveries = await app.ownerDb('webhook_deliveries').where({ tenant_id: tenant.tenantId });
      t.deepEqual(deliveries.map((d) => d.status).sort(), ['pending', 'succeeded', 'succeeded']);
      t.true(deliveries.every((d) => d.attempts === 1));
      const failed = deliveries.find((d) => d.status === 'pending');
      const retries = await app.ownerDb.raw(
        "select data from pgboss.job where name = 'deliver-webhook' and data->>'deliveryId' = ? and (data->>'attempt')::int = 2",
        [failed.id],
      );
      t.is(retries.rows.length, 1, 'the failed attempt queues its next one');
      const logged = await app.ownerDb('webhook_attempts').where({ tenant_id: tenant.tenantId });
      t.is(logged.length, 3);

      // The same jobs again (a batch run twice): nothing is sent or recorded twice.
      const again = (await deliverWebhookBatch(jobs, app.deps)) as { skipped?: string }[];
      t.true(again.every((o) => typeof o.skipped === 'string'));
      t.is(receiver.requests.length, 3);
    } finally {
      await receiver.close();
    }
  },
);

test.serial(
  'a batch of deliveries of two tenants: each tenant’s attempts recorded in its own transaction',
  async (t) => {
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const tenants = [
        await seedPlatformTenant(app.ownerDb, { kyb: 'verified' }),
        await seedPlatformTenant(app.ownerDb, { kyb: 'verified' }),
      ];
      const jobs: DeliveryJob[] = [];
      for (const tenant of tenants) jobs.push(...(await queueDeliveries(t, tenant, receiver.url, ['A-1', 'A-2'])));
      // Interleaved, as a fetch across tenants returns them, with one job twice (a job sent twice):
      // both are prepared and sent, the second is judged against the first's record and logs nothing.
      const batch = [jobs[0], jobs[2], jobs[1], jobs[3], jobs[0]];
      const outputs = (await deliverWebhookBatch(batch, app.deps)) as { delivery_id: string; recorded: boolean }[];
      t.deepEqual(
        outputs.map((o) => [o.delivery_id, o.recorded]),
        batch.map((job, i) => [job.deliveryId, i < 4]),
      );
      t.is(receiver.requests.length, 5);
      for (const tenant of tenants) {
        const deliveries = await app.ownerDb('webhook_deliveries').where({ tenant_id: tenant.tenantId });
        t.deepEqual(
          deliveries.map((d) => [d.status, d.attempts]),
          [
            ['succeeded', 1],
            ['succeeded', 1],
          ],
        );
        t.is((await app.ownerDb('webhook_attempts').where({ tenant_id: tenant.tenantId })).length, 2);
      }
    } finally {
      await receiver.close();
    }
  },
);

test('fair share: a tenant’s priority falls by one every step of its recent sends, and recovers as they age', (t) => {
  let now = 0;
  const share = new FairShare(() => now);
  const burst = Array.from({ length: 3 * FAIR_SHARE_STEP }, () => share.next('q', 'busy'));
  t.deepEqual(burst.slice(0, FAIR_SHARE_STEP), Array(FAIR_SHARE_STEP).fill(0));
  t.deepEqual(burst.slice(FAIR_SHARE_STEP, 2 * FAIR_SHARE_STEP), Array(FAIR_SHARE_STEP).fill(-1));
  t.is(burst.at(-1), -2);
  t.true(
    burst.every((p, i) => i === 0 || p <= burst[i - 1]),
    'within a burst, priorities only fall: the tenant’s jobs keep their order',
  );
  t.is(share.next('q', 'quiet'), 0, 'another tenant is not slowed by the burst');
  t.is(share.next('other-queue', 'busy'), 0, 'nor is the same tenant on another queue');
  now += 10 * FAIR_SHARE_HALF_LIFE_MS;
  t.is(share.next('q', 'busy'), 0, 'once the burst has aged, the tenant is back at the top');
});
