import type { Knex } from 'knex';
import type { AnchorRow } from '../anchoring/index.js';
import { type ClosingRow, chainClosings, chainEntries, type FiscalChain, findClosing } from '../ledger/index.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { chainUser } from './chain-user.js';
import { declaration, declarationView } from './declaration-text.js';
import { publisherOf, softwareOf } from './publisher.js';
import { recentIntegrity } from './recent-integrity.js';

/**
 * The attestation individuelle of one chain: for a calendar year (entries appended that year, its
 * closings, its yearly closing and anchor once made) or, with `year` null, for the whole chain
 * (the ISCA self-attestation). Facts come from the ledger as it stands; the integrity verdict is
 * a check of the last 24 hours or one run now.
 */
export async function buildAttestation(ctx: OperationContext, chain: FiscalChain, year: number | null) {
  const now = ctx.clock.now();
  const from = year === null ? null : `${year}-01-01`;
  const to = year === null ? null : `${year}-12-31`;
  const { user, platform } = await chainUser(ctx.tx, chain);
  const facts = await chainFacts(ctx.tx, chain, year);
  const closings = await closingFacts(ctx.tx, chain, year);
  const integrity = await recentIntegrity(ctx, { ...chain, period: null }, { onlyChain: chain.subTenantId });
  const publisher = publisherOf(ctx.deps.config);
  const software = softwareOf(ctx.deps.config);
  const wording = declaration({
    publisher,
    software,
    user,
    platform,
    year,
    environment: chain.environment,
    date: now.toISOString().slice(0, 10),
  });
  return {
    view: {
      kind: 'attestation_individuelle' as const,
      year,
      generated_at: now.toISOString(),
      environment: chain.environment,
      publisher,
      software,
      user,
      platform,
      chain: { sub_tenant_id: chain.subTenantId, period_from: from, period_to: to, ...facts },
      closings,
      integrity: {
        valid: integrity.valid,
        checked_at: integrity.checked_at,
        ran_now: integrity.ran_now,
        entries_checked: integrity.entries_checked,
        broken_links: integrity.broken_links,
        first_broken_sequence: integrity.first_broken?.sequence_number ?? null,
      },
      declaration: declarationView(wording),
    },
    wording,
  };
}
export type Attestation = Awaited<ReturnType<typeof buildAttestation>>;
export type AttestationView = Attestation['view'];

/** The entries appended in the year (UTC), or ever: counts per type, first and last, the last chain hash. */
async function chainFacts(tx: Knex, chain: FiscalChain, year: number | null) {
  const inPeriod = () =>
    chainEntries(tx, chain).modify((q) => {
      if (year !== null) {
        q.andWhere('created_at', '>=', new Date(Date.UTC(year, 0, 1))).andWhere(
          'created_at',
          '<',
          new Date(Date.UTC(year + 1, 0, 1)),
        );
      }
    });
  const byType = await inPeriod()
    .groupBy('entry_type')
    .select<{ entry_type: string; n: number }[]>('entry_type', tx.raw('count(*)::int as n'));
  const first = await inPeriod()
    .orderBy('sequence_number')
    .first<{ sequence_number: number } | undefined>('sequence_number');
  const last = await inPeriod()
    .orderBy('sequence_number', 'desc')
    .first<{ sequence_number: number; chain_hash: string } | undefined>('sequence_number', 'chain_hash');
  const head = await chainEntries(tx, chain).max<{ n: number | null }>({ n: 'sequence_number' }).first();
  const entriesByType: Record<string, number> = {};
  for (const type of ['invoice_created', 'credit_note_issued', 'payment', 'closing']) entriesByType[type] = 0;
  for (const row of byType) entriesByType[row.entry_type] = Number(row.n);
  return {
    entries_count: byType.reduce((sum, r) => sum + Number(r.n), 0),
    entries_by_type: entriesByType,
    first_sequence_number: first ? Number(first.sequence_number) : null,
    last_sequence_number: last ? Number(last.sequence_number) : null,
    last_chain_hash: last?.chain_hash ?? null,
    chain_length: Number(head?.n ?? 0),
  };
}

/** Closings of the year (by period start), or every one: counts per type, the yearly one, the latest. */
async function closingFacts(tx: Knex, chain: FiscalChain, year: number | null) {
  const inPeriod = () =>
    chainClosings(tx, chain).modify((q) => {
      if (year !== null) q.andWhereBetween('period_start', [`${year}-01-01`, `${year}-12-31`]);
    });
  const counts = await inPeriod()
    .groupBy('type')
    .select<{ type: string; n: number }[]>('type', tx.raw('count(*)::int as n'));
  const count = (type: string) => Number(counts.find((c) => c.type === type)?.n ?? 0);
  const yearly = year === null ? undefined : await findClosing(tx, chain, 'yearly', `${year}-01-01`);
  const latest = await inPeriod()
    .orderBy([
      { column: 'period_end', order: 'desc' },
      { column: 'closed_at', order: 'desc' },
    ])
    .first<ClosingRow | undefined>();
  return {
    daily: count('daily'),
    monthly: count('monthly'),
    yearly: count('yearly'),
    yearly_closing: yearly ? await withAnchor(tx, yearly) : null,
    latest: latest ? await withAnchor(tx, latest) : null,
  };
}

async function withAnchor(tx: Knex, closing: ClosingRow) {
  const anchor = await tx('fiscal_anchors')
    .where({ tenant_id: closing.tenant_id, type: 'closing', entity_id: closing.id })
    .first<AnchorRow | undefined>();
  return {
    id: closing.id,
    type: closing.type,
    period_start: closing.period_start,
    period_end: closing.period_end,
    closing_hash: closing.closing_hash,
    closed_at: closing.closed_at.toISOString(),
    entries_count: Number(closing.entries_count),
    fiscal_year_totals: closing.fiscal_year_totals,
    anchor: anchor
      ? {
          id: anchor.id,
          status: anchor.status,
          verified: anchor.verified,
          anchored_at: anchor.anchored_at?.toISOString() ?? null,
          anchor_reference: anchor.anchor_reference,
          tsa_name: anchor.tsa_name,
        }
      : null,
  };
}
export type ClosingWithAnchor = Awaited<ReturnType<typeof withAnchor>>;

/** A year can be attested once it has begun: a future year has no facts to state (422). */
export function assertAttestableYear(year: number, now: Date): void {
  const current = now.getUTCFullYear();
  if (year > current) {
    throw AppError.validation({ year: [`must not be after the current year (${current})`] });
  }
}
