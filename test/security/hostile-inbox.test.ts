import { randomUUID } from 'node:crypto';
import test from 'ava';
import { EINVOICING_PROVIDER } from '../../domain/container.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { connectProvider } from '../../domain/transmission/operations/connect-provider.js';
import { recordProviderEvents } from '../../domain/transmission/operations/record-provider-events.js';
import { toProviderEvent } from '../../domain/transmission/superpdp-mapping.js';
import { syncIncomingInvoicesJob } from '../../workers/handlers/sync-incoming-invoices.js';
import { syncProviderEvents } from '../../workers/handlers/sync-provider-events.js';
import { FakeEInvoicingProvider } from '../fakes/fake-einvoicing-provider.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';
import { edit, sample } from './hostile-samples.js';

let ctx: TestDeps;
const provider = new FakeEInvoicingProvider();
test.before(async () => {
  ctx = await createTestDeps({ override: (c) => c.register(EINVOICING_PROVIDER, { useValue: provider }) });
});
test.after.always(() => ctx?.close());

/** UTF-16BE with its BOM, one byte short of whole characters. */
function oddUtf16(xml: Buffer): Buffer {
  const utf16 = Buffer.from(xml.toString('utf8').replace(/^<\?xml[^>]*\?>/, ''), 'utf16le').swap16();
  return Buffer.concat([Buffer.from([0xfe, 0xff]), utf16, Buffer.from([0x3c])]);
}

const POISONED = [
  {
    name: 'an impossible date',
    bytes: () => edit(sample('BAD-DATE', 'ubl'), /<cbc:IssueDate>[^<]*</, '<cbc:IssueDate>2026-02-30<'),
    error: /not a day of the calendar/,
  },
  {
    name: 'an amount over numeric(18,2)',
    bytes: () =>
      edit(
        sample('BAD-AMOUNT', 'ubl'),
        /<cbc:PayableAmount currencyID="EUR">[^<]*</,
        '<cbc:PayableAmount currencyID="EUR">99999999999999999.00<',
      ),
    error: /out of range/,
  },
  {
    name: 'a NUL from &#0;',
    bytes: () => edit(sample('BAD-NUL', 'ubl'), 'Atelier Lumi', 'Atelier&#0;Lumi'),
    error: /not an XML character/,
  },
  {
    name: 'an odd-length UTF-16 text',
    bytes: () => oddUtf16(sample('BAD-UTF16', 'ubl')),
    error: /odd number of bytes/,
  },
  {
    name: 'an over-long invoice number',
    bytes: () => edit(sample('BAD-LONG', 'ubl'), '<cbc:ID>BAD-LONG<', `<cbc:ID>${'9'.repeat(5000)}<`),
    error: /longer than 200/,
  },
  { name: 'an empty file', bytes: () => Buffer.alloc(0), error: /empty/ },
];

test.serial('a poisoned inbox page stores each bad file with its error, and the next files arrive', async (t) => {
  const tenant = await seedPlatformTenant(ctx.ownerDb);
  const accountId = `acct-${randomUUID()}`;
  const job = { accountId, tenantId: tenant.tenantId, environment: 'sandbox' as const, subTenantId: null };
  const at = '2026-11-20T10:00:00Z';
  const item = (pdpId: number, bytes: Buffer, contentType = 'application/xml') => ({
    pdpId: String(pdpId),
    createdAt: at,
    bytes,
    contentType,
  });
  const bad = POISONED;
  provider.inbox = [
    item(2000, sample('GOOD-BEFORE', 'ubl')),
    ...bad.map((p, i) => item(2001 + i, p.bytes())),
    item(2100, sample('GOOD-AFTER', 'cii')),
  ];
  const outcome = await syncIncomingInvoicesJob(job, ctx.deps);
  t.deepEqual(outcome, { stored: bad.length + 2, duplicates: 0, unreadable: bad.length, cursor: '2100' });
  const rows = await ctx.ownerDb('incoming_invoices').where({ tenant_id: tenant.tenantId });
  bad.forEach((p, i) => {
    const row = rows.find((r) => r.pdp_id === String(2001 + i));
    t.truthy(row, p.name);
    t.regex(row.parse_error ?? '', p.error, p.name);
    t.is(row.invoice_number, null, p.name);
    t.deepEqual(row.content, p.bytes(), `${p.name}: the file is kept as received`);
  });
  t.like(
    rows.find((r) => r.pdp_id === '2100'),
    { invoice_number: 'GOOD-AFTER', parse_error: null, format: 'cii' },
  );
  t.is((await ctx.ownerDb('incoming_sync_cursors').where({ account_id: accountId }).first()).after_id, '2100');
  const events = await ctx.ownerDb('incoming_invoice_events').where({ tenant_id: tenant.tenantId });
  t.is(events.length, bad.length + 2);

  // The next run starts after the poisoned page.
  provider.inbox.push(item(2101, sample('GOOD-NEXT', 'facturx'), 'application/pdf'));
  t.like(await syncIncomingInvoicesJob(job, ctx.deps), { stored: 1, unreadable: 0, cursor: '2101' });
});

test.serial('a provider event stream with an unusable event moves on, keeping the event with its error', async (t) => {
  const tenant = await seedPlatformTenant(ctx.ownerDb);
  const connection = await execute(
    connectProvider,
    { tenant_id: tenant.tenantId, client_id: 'client_1', client_secret: 'secret_1' },
    systemCaller(),
    ctx.deps,
  );
  const event = (id: string, extra: Record<string, unknown> = {}) => ({
    id,
    invoiceId: '777',
    statusCode: 'fr:200',
    statusText: 'Déposée',
    reason: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    ...extra,
  });
  provider.events = [
    event('100'),
    event('101', { reason: 'NUL\u0000here', statusText: 'lone \ud800 surrogate' }),
    event('102', { createdAt: '2026-02-30T99:00:00Z' }),
    event('103'),
  ];
  const outcome = await syncProviderEvents({ tenantId: tenant.tenantId, connectionId: connection.id }, ctx.deps);
  t.like(outcome, { applied: 0 });
  const stored = await ctx.ownerDb('provider_connections').where({ id: connection.id }).first();
  t.is(stored.events_cursor, '103');
  const parked = await ctx
    .ownerDb('provider_unmatched_events')
    .where({ connection_id: connection.id })
    .orderBy('provider_event_id');
  t.deepEqual(
    parked.map((p) => p.provider_event_id),
    ['100', '101', '103'],
  );
  t.is(parked[1].event.reason, 'NULhere');
  const errors = await ctx.ownerDb('provider_event_errors').where({ connection_id: connection.id });
  t.deepEqual(
    errors.map((e) => e.provider_event_id),
    ['102'],
  );
  t.regex(errors[0].error, /not a date/);

  // A non-numeric cursor no longer fails the page (BigInt of it threw).
  await t.notThrowsAsync(
    execute(
      recordProviderEvents,
      { connection_id: connection.id, events: [], cursor: 'abc' },
      systemCaller(tenant.tenantId),
      ctx.deps,
    ),
  );
});

test('the SuperPDP event mapping never throws on a date that is none', (t) => {
  const mapped = toProviderEvent({ id: 5, invoice_id: 6, status_code: 'fr:200', created_at: 'yesterday' });
  t.is(mapped.createdAt, 'yesterday');
});
