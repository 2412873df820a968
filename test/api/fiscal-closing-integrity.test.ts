import test from 'ava';
import type { Knex } from 'knex';
import { sealClosing } from '../../domain/ledger/closing-record.js';
import type { ClosingRow } from '../../domain/ledger/closing-store.js';
import { addTotals, periodTotals } from '../../domain/ledger/closing-totals.js';
import { canonicalJson, sha256Hex } from '../../domain/ledger/fiscal-chain.js';
import { checkIntegrity, type IntegrityReport } from '../../domain/ledger/integrity-check.js';
import { closeDay, getFiscal, invoiceAt, runAnchorJobs, smallInvoice } from '../helpers/fiscal-closings.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

const clock = new TestClock('2026-02-10T09:00:00Z');
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' }, override: withClock(clock) });
});
test.after.always(() => app?.close());

/**
 * Two closed and anchored days: entries 1-2 on 10 February, 3-4 on 11 February, the two closing
 * entries (5, 6) on 12 February.
 */
async function closedAndAnchored(): Promise<{ tenant: SeededTenant; closings: ClosingRow[] }> {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  await invoiceAt(app, clock, key, '2026-02-10T09:00:00Z', smallInvoice(100));
  await invoiceAt(app, clock, key, '2026-02-10T10:00:00Z', smallInvoice(200));
  await invoiceAt(app, clock, key, '2026-02-11T09:00:00Z', smallInvoice(300));
  await invoiceAt(app, clock, key, '2026-02-11T10:00:00Z', smallInvoice(400));
  clock.set('2026-02-12T01:00:00Z');
  const closed = await closeDay(app, key, { date: '2026-02-11' });
  if (closed.status !== 200) throw new Error(JSON.stringify(closed.body));
  await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId);
  const closings = await app
    .ownerDb('fiscal_closings')
    .where({ tenant_id: tenant.tenantId })
    .orderBy('period_start')
    .select<ClosingRow[]>('*');
  return { tenant, closings };
}

const chainOf = (tenant: SeededTenant) => ({
  tenantId: tenant.tenantId,
  environment: 'sandbox' as const,
  subTenantId: null,
});

/**
 * What a superuser could do: with the triggers off, change the amount of entry `from` and
 * recompute `data_hash`, `previous_hash` and `chain_hash` of it and every entry after, so that the
 * chain verifies on its own. `closingEntryData` lets the rewrite also change what closing entries say.
 */
async function rewriteChain(
  tx: Knex,
  tenant: SeededTenant,
  from: number,
  closingEntryData: (data: Record<string, unknown>) => Record<string, unknown> = (d) => d,
) {
  await tx.raw('alter table fiscal_entries disable trigger user');
  const rows = await tx('fiscal_entries').where({ tenant_id: tenant.tenantId }).orderBy('sequence_number');
  let previous = '0'.repeat(64);
  for (const row of rows) {
    if (Number(row.sequence_number) >= from) {
      let data = row.data as Record<string, unknown>;
      if (Number(row.sequence_number) === from)
        data = { ...data, total_ht: '3.00', total_tax: '0.60', total_ttc: '3.60' };
      if (row.entry_type === 'closing') data = closingEntryData(data);
      const canonical = canonicalJson(data);
      const dataHash = sha256Hex(canonical);
      const chainHash = sha256Hex(previous + dataHash);
      await tx('fiscal_entries').where({ id: row.id }).update({
        data: canonical,
        canonical_data: canonical,
        data_hash: dataHash,
        previous_hash: previous,
        chain_hash: chainHash,
      });
      row.chain_hash = chainHash;
    }
    previous = row.chain_hash;
  }
}

/** Runs `tamper` as the database owner, checks integrity on that view, and rolls it all back. */
async function checkTampered(tenant: SeededTenant, tamper: (tx: Knex) => Promise<void>): Promise<IntegrityReport> {
  let report: IntegrityReport | undefined;
  await app.ownerDb
    .transaction(async (tx) => {
      await tamper(tx);
      report = await checkIntegrity(
        tx,
        { tenantId: tenant.tenantId, environment: 'sandbox', subTenantId: null, period: null },
        new Date(),
      );
      throw new Error('roll back');
    })
    .catch((err: Error) => {
      if (err.message !== 'roll back') throw err;
    });
  return report!;
}

const ENTRY_REASONS = [
  'sequence_gap',
  'sequence_duplicate',
  'data_altered',
  'data_hash_mismatch',
  'previous_hash_mismatch',
  'chain_hash_mismatch',
];

test.serial('closings and anchors verify on an intact chain', async (t) => {
  const { tenant } = await closedAndAnchored();
  t.like((await getFiscal(app, tenant.keys.sk_test, 'integrity')).body, {
    valid: true,
    entries_checked: 6,
    closings_checked: 2,
    anchors_checked: 2,
    broken_links: [],
  });
  t.like((await getFiscal(app, tenant.keys.sk_test, 'integrity/2026-02-11')).body, {
    valid: true,
    closings_checked: 1,
  });
});

test.serial('a period reports the entries and closings of its days only; a reversed period is 422', async (t) => {
  const { tenant } = await closedAndAnchored();
  const key = tenant.keys.sk_test;
  // Two invoices on the 10th and two on the 11th; the closings of both days were recorded on the 12th.
  t.like((await getFiscal(app, key, 'integrity?date_from=2026-02-11&date_to=2026-02-11')).body, {
    valid: true,
    entries_checked: 2,
    closings_checked: 1,
  });
  t.like((await getFiscal(app, key, 'integrity?date_from=2026-02-10')).body, {
    entries_checked: 6,
    closings_checked: 2,
  });
  t.like((await getFiscal(app, key, 'integrity?date_to=2026-02-09')).body, { entries_checked: 0, closings_checked: 0 });
  const reversed = await getFiscal(app, key, 'integrity?date_from=2026-02-11&date_to=2026-02-10');
  t.is(reversed.status, 422);
  t.deepEqual(Object.keys(reversed.body.errors), ['date_to']);
  const history = (await getFiscal(app, key, 'integrity/history')).body.data;
  t.like(
    history.find((h: { date: string | null }) => h.date === '2026-02-10'),
    { date_to: '9999-12-31' },
  );
  t.like(
    history.find(
      (h: { date: string | null; date_to: string | null }) => h.date === '2026-02-11' && h.date_to === '2026-02-11',
    ),
    {
      valid: true,
    },
  );
});

test.serial('a rewrite of the chain with recomputed hashes is caught by the closing that sealed it', async (t) => {
  const { tenant, closings } = await closedAndAnchored();
  const report = await checkTampered(tenant, (tx) => rewriteChain(tx, tenant, 3));
  t.false(report.valid);
  t.deepEqual(
    report.broken_links.filter((b) => ENTRY_REASONS.includes(b.reason)),
    [],
    'the chain itself verifies: every hash was recomputed',
  );
  t.like(report.broken_links[0], { sequence_number: 3, reason: 'closing_seal_mismatch', closing_id: closings[1].id });
  t.true(report.broken_links.some((b) => b.reason === 'closing_totals_mismatch' && b.sequence_number === 3));
  t.false(
    report.broken_links.some((b) => b.closing_id === closings[0].id),
    'the first day, entries 1 and 2, still holds',
  );
});

test.serial('a full rewrite, closings recomputed too, is caught by the anchored closing only', async (t) => {
  const { tenant, closings } = await closedAndAnchored();
  const [day1, day2] = closings;
  const report = await checkTampered(tenant, async (tx) => {
    // The attacker rewrites entries 3 onwards, then reseals the second day's closing from the new
    // chain (new seal, new totals, new hash), makes its closing entry say so, and points its anchor at it.
    let resealed: ClosingRow | undefined;
    await rewriteChain(tx, tenant, 3);
    const entry4 = await tx('fiscal_entries').where({ tenant_id: tenant.tenantId, sequence_number: 4 }).first();
    const totals = await periodTotals(tx, chainOf(tenant), 3, 4);
    const { closing_hash: _h, canonical_data: _c, ...fields } = day2;
    resealed = sealClosing({
      ...fields,
      last_chain_hash: entry4.chain_hash,
      totals,
      fiscal_year_totals: addTotals(day1.fiscal_year_totals, totals),
      perpetual_totals: addTotals(day1.perpetual_totals, totals),
    });
    await tx.raw('alter table fiscal_closings disable trigger user');
    await tx('fiscal_closings')
      .where({ id: day2.id })
      .update({
        last_chain_hash: resealed.last_chain_hash,
        totals: JSON.stringify(resealed.totals),
        fiscal_year_totals: JSON.stringify(resealed.fiscal_year_totals),
        perpetual_totals: JSON.stringify(resealed.perpetual_totals),
        canonical_data: resealed.canonical_data,
        closing_hash: resealed.closing_hash,
      });
    await rewriteChain(tx, tenant, 5, (data) =>
      data.closing_id === day2.id
        ? {
            ...data,
            closing_hash: resealed!.closing_hash,
            last_chain_hash: resealed!.last_chain_hash,
            net_ht: totals.net_ht,
          }
        : data,
    );
    await tx.raw('alter table fiscal_anchors disable trigger user');
    await tx('fiscal_anchors').where({ entity_id: day2.id }).update({ data_hash: resealed.closing_hash });
  });
  t.false(report.valid);
  t.deepEqual(
    report.broken_links.map((b) => [b.sequence_number, b.reason, b.closing_id]),
    [[3, 'anchor_mismatch', day2.id]],
    JSON.stringify(report.broken_links),
  );
  t.regex(report.broken_links[0].detail, /the message imprint is not the expected hash/);
  t.like((await getFiscal(app, tenant.keys.sk_test, 'integrity')).body, { valid: true }, 'the rollback restored it');
});

test.serial('a closing altered in place, or its link to the one before, is reported at its first entry', async (t) => {
  const { tenant, closings } = await closedAndAnchored();
  const [, day2] = closings;
  const disable = (tx: Knex) => tx.raw('alter table fiscal_closings disable trigger user');
  const altered = await checkTampered(tenant, async (tx) => {
    await disable(tx);
    await tx('fiscal_closings').where({ id: day2.id }).update({ fiscal_year: 2025 });
  });
  t.like(altered.broken_links[0], { sequence_number: 3, reason: 'closing_altered', closing_id: day2.id });
  const relinked = await checkTampered(tenant, async (tx) => {
    await disable(tx);
    const { closing_hash: _h, canonical_data: _c, ...fields } = day2;
    const fake = sealClosing({ ...fields, previous_closing_hash: 'a'.repeat(64) });
    await tx('fiscal_closings').where({ id: day2.id }).update({
      previous_closing_hash: fake.previous_closing_hash,
      canonical_data: fake.canonical_data,
      closing_hash: fake.closing_hash,
    });
  });
  const reasons = relinked.broken_links.map((b) => b.reason);
  t.true(reasons.includes('closing_link_mismatch'), reasons.join());
  t.true(reasons.includes('closing_entry_mismatch'), 'its closing entry recorded the old hash');
  t.true(reasons.includes('anchor_mismatch'), 'and its anchor time-stamped the old hash');
  t.is(relinked.broken_links[0].sequence_number, 3);
});
