import { randomUUID } from 'node:crypto';
import test from 'ava';
import { EINVOICING_PROVIDER } from '../../domain/container.js';
import { renderFormat } from '../../domain/documents/render.js';
import { decideIncoming } from '../../domain/incoming/decide-incoming.js';
import { scheduleIncomingSyncs } from '../../domain/incoming/operations/schedule-incoming-syncs.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { defineCommand } from '../../domain/shared/operation.js';
import { scheduleIncomingSyncsJob } from '../../workers/handlers/schedule-incoming-syncs.js';
import { sendIncomingStatus } from '../../workers/handlers/send-incoming-status.js';
import { syncIncomingInvoicesJob } from '../../workers/handlers/sync-incoming-invoices.js';
import { FakeEInvoicingProvider } from '../fakes/fake-einvoicing-provider.js';
import { buildDocument } from '../fixtures/invoice-document-builder.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { queuedJobs } from '../helpers/seed.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let ctx: TestDeps;
const provider = new FakeEInvoicingProvider();
test.before(async () => {
  ctx = await createTestDeps({ override: (c) => c.register(EINVOICING_PROVIDER, { useValue: provider }) });
});
test.after.always(() => ctx?.close());

const xml = (number: string) =>
  renderFormat(
    buildDocument({ number, lines: [{ description: 'Toner', quantity: '2', unitPrice: '30.00' }] }),
    'ubl',
  )[0].content;

test.serial(
  'the inbox sync stores each page, recognises repeats, keeps unreadable files, and resumes from its cursor',
  async (t) => {
    const tenant = await seedPlatformTenant(ctx.ownerDb);
    const accountId = `acct-${randomUUID()}`;
    const job = { accountId, tenantId: tenant.tenantId, environment: 'sandbox' as const, subTenantId: null };
    const at = '2026-11-20T10:00:00Z';
    provider.inbox = Array.from({ length: 60 }, (_, i) => ({
      pdpId: String(1000 + i),
      createdAt: at,
      bytes: xml(`SYNC-${i}`),
      contentType: 'application/xml',
    }));
    provider.inbox.push({ pdpId: '1060', createdAt: at, bytes: xml('SYNC-0'), contentType: 'application/xml' }); // same file again
    provider.inbox.push({
      pdpId: '1061',
      createdAt: at,
      bytes: Buffer.from('<!DOCTYPE x [<!ENTITY y SYSTEM "file:///etc/passwd">]><Invoice>&y;</Invoice>'),
      contentType: 'application/xml',
    });
    const first = await syncIncomingInvoicesJob(job, ctx.deps);
    t.deepEqual(first, { stored: 61, duplicates: 1, unreadable: 1, cursor: '1061' });
    const rows = await ctx.ownerDb('incoming_invoices').where({ tenant_id: tenant.tenantId });
    t.is(rows.length, 61);
    const unreadable = rows.find((r) => r.pdp_id === '1061');
    t.like(unreadable, { status: 'received', format: null, invoice_number: null });
    t.regex(unreadable.parse_error, /DOCTYPE/);
    t.false(unreadable.content.toString().includes('root:'));
    const cursor = await ctx.ownerDb('incoming_sync_cursors').where({ account_id: accountId }).first();
    t.is(cursor.after_id, '1061');

    provider.inbox.push({ pdpId: '1062', createdAt: at, bytes: xml('SYNC-NEW'), contentType: 'application/xml' });
    provider.listCalls = [];
    const second = await syncIncomingInvoicesJob(job, ctx.deps);
    t.deepEqual(second, { stored: 1, duplicates: 0, unreadable: 0, cursor: '1062' });
    t.is(provider.listCalls[0], '1061');
    t.is(await syncIncomingInvoicesJob(job, ctx.deps).then((o) => (o as { stored: number }).stored), 0);

    // The daily fan-out queues one job per account with a cursor.
    const queued = await scheduleIncomingSyncsJob({}, ctx.deps);
    t.true((queued as { queued: number }).queued >= 1);
    t.true((await queuedJobs(ctx.ownerDb, 'sync-incoming-invoices')).some((j) => j.accountId === accountId));
    const explicit = await execute(
      scheduleIncomingSyncs,
      { accounts: [{ account_id: `acct-${randomUUID()}`, tenant_id: tenant.tenantId, environment: 'sandbox' }] },
      systemCaller(),
      ctx.deps,
    );
    t.is(explicit.queued, 1);
  },
);

test.serial('a decision is sent to the provider once, with its reason; a failure is retried', async (t) => {
  const tenant = await seedPlatformTenant(ctx.ownerDb);
  const accountId = `acct-${randomUUID()}`;
  provider.inbox = [
    { pdpId: '7001', createdAt: '2026-11-20T10:00:00Z', bytes: xml('SEND-1'), contentType: 'application/xml' },
  ];
  await syncIncomingInvoicesJob(
    { accountId, tenantId: tenant.tenantId, environment: 'sandbox', subTenantId: null },
    ctx.deps,
  );
  const row = await ctx.ownerDb('incoming_invoices').where({ tenant_id: tenant.tenantId, pdp_id: '7001' }).first();
  const reject = defineCommand({
    name: 'test_reject',
    summary: 'test',
    input: 'IncomingInvoiceIdInput',
    output: 'IncomingInvoice',
    callers: ['tenant'],
    run: (input: { id: string }, c) =>
      decideIncoming(c, input.id, 'reject', { reasonCode: 'MONTANTTOTAL_ERR', reasonText: 'Total faux' }),
  });
  await execute(
    reject,
    { id: row.id },
    { ...systemCaller(tenant.tenantId, 'sandbox'), kind: 'tenant', scopes: ['invoices'] },
    ctx.deps,
  );
  const send = await ctx.ownerDb('incoming_status_sends').where({ incoming_invoice_id: row.id }).first();
  provider.sent = [];
  provider.failSends = 1;
  await t.throwsAsync(sendIncomingStatus({ tenantId: tenant.tenantId, eventId: send.event_id }, ctx.deps));
  t.like(await ctx.ownerDb('incoming_status_sends').where({ event_id: send.event_id }).first(), {
    attempts: 1,
    sent_at: null,
  });
  await sendIncomingStatus({ tenantId: tenant.tenantId, eventId: send.event_id }, ctx.deps);
  t.deepEqual(await sendIncomingStatus({ tenantId: tenant.tenantId, eventId: send.event_id }, ctx.deps), {
    skipped: true,
  });
  t.is(provider.sent.length, 1);
  t.deepEqual(provider.sent[0].status, {
    invoiceId: '7001',
    statusCode: 'fr:210',
    reason: { code: 'MONTANTTOTAL_ERR', text: 'Total faux' },
  });
  t.is(provider.sent[0].account.id, accountId);
});
