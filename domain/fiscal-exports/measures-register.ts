import type { Knex } from 'knex';
import { formatDate } from '../documents/index.js';
import { type FiscalChain, NO_SUB_TENANT } from '../ledger/index.js';

/** One dated measure: when, in which domain, what, and the details. */
export interface Measure {
  /** ISO instant, for ordering. */
  at: string;
  domain: string;
  measure: string;
  detail: string;
  /** Orders measures of the same instant: days before their month, the month before its year. */
  rank: number;
}

const monthName = new Intl.DateTimeFormat('fr-FR', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const month = (yyyyMm: string) => monthName.format(new Date(`${yyyyMm}-01T00:00:00Z`));
const iso = (d: Date | string) => (typeof d === 'string' ? d : d.toISOString());
const hashStart = (hash: string) => `${hash.slice(0, 16)}…`;

/**
 * The register of measures (registre des mesures) of one chain: what was done to keep its data
 * unalterable and when, read from the records the service keeps: the chain's opening, kill-switch
 * activations and deactivations (audit trail), fiscal rule versions, monthly and yearly closings
 * one by one, and, month by month, the daily closings, the RFC 3161 time-stamps and the integrity
 * checks. Oldest first.
 */
export async function measuresOf(tx: Knex, chain: FiscalChain): Promise<Measure[]> {
  const owner = { tenant_id: chain.tenantId, environment: chain.environment };
  const sameChain = (q: Knex.QueryBuilder) =>
    q.andWhereRaw('coalesce(sub_tenant_id, ?::uuid) = ?::uuid', [NO_SUB_TENANT, chain.subTenantId ?? NO_SUB_TENANT]);
  const measures: Measure[] = [];

  const first = await sameChain(tx('fiscal_entries').where(owner))
    .andWhere({ sequence_number: 1 })
    .first<{ created_at: Date; chain_hash: string } | undefined>('created_at', 'chain_hash');
  if (first) {
    measures.push({
      at: iso(first.created_at),
      rank: 0,
      domain: 'Chaîne fiscale',
      measure: 'Ouverture de la chaîne (enregistrement n° 1)',
      detail: `Empreinte de chaînage ${hashStart(first.chain_hash)}`,
    });
  }

  const switches = await tx('audit_entries')
    .where({ ...owner, entity_type: 'fiscal_kill_switch' })
    .orderBy('created_at')
    .select<{ action: string; details: { reason?: string | null }; created_at: Date }[]>(
      'action',
      'details',
      'created_at',
    );
  for (const s of switches) {
    const on = s.action === 'fiscal.kill_switch.activated';
    measures.push({
      at: iso(s.created_at),
      rank: 5,
      domain: 'Coupe-circuit fiscal',
      measure: on ? 'Activation : création de factures et d’avoirs suspendue' : 'Désactivation : création rétablie',
      detail: s.details?.reason ? `Motif : ${s.details.reason}` : 'Sans motif indiqué',
    });
  }

  const rules = await tx('fiscal_rules')
    .where(owner)
    .orderBy('created_at')
    .select<{ key: string; version: number; effective_from: string; description: string; created_at: Date }[]>(
      'key',
      'version',
      'effective_from',
      'description',
      'created_at',
    );
  for (const r of rules) {
    measures.push({
      at: iso(r.created_at),
      rank: 6,
      domain: 'Règle fiscale',
      measure: `${r.key}, version ${r.version}, en vigueur au ${formatDate(r.effective_from)}`,
      detail: r.description,
    });
  }

  const closings = await sameChain(tx('fiscal_closings').where(owner))
    .whereIn('type', ['monthly', 'yearly'])
    .orderBy('closed_at')
    .select<{ type: string; period_start: string; period_end: string; closing_hash: string; closed_at: Date }[]>(
      'type',
      'period_start',
      'period_end',
      'closing_hash',
      'closed_at',
    );
  for (const c of closings) {
    measures.push({
      at: iso(c.closed_at),
      rank: c.type === 'yearly' ? 3 : 2,
      domain: 'Clôture',
      measure:
        c.type === 'yearly'
          ? `Clôture annuelle de l’exercice ${c.period_start.slice(0, 4)}`
          : `Clôture mensuelle de ${month(c.period_start.slice(0, 7))}`,
      detail: `Empreinte ${hashStart(c.closing_hash)}`,
    });
  }

  const { rows: days } = await tx.raw<{
    rows: { month: string; n: number; first: string; last: string; at: Date }[];
  }>(
    `select to_char(period_start, 'YYYY-MM') as month, count(*)::int as n, min(period_start) as first,
            max(period_end) as last, max(closed_at) as at
       from fiscal_closings
      where tenant_id = ? and environment = ? and type = 'daily'
        and coalesce(sub_tenant_id, ?::uuid) = ?::uuid
      group by 1`,
    [chain.tenantId, chain.environment, NO_SUB_TENANT, chain.subTenantId ?? NO_SUB_TENANT],
  );
  for (const d of days) {
    measures.push({
      at: iso(d.at),
      rank: 1,
      domain: 'Clôture',
      measure: `${d.n} clôture(s) journalière(s) de ${month(d.month)}`,
      detail: `Du ${formatDate(d.first)} au ${formatDate(d.last)}`,
    });
  }

  const { rows: stamps } = await tx.raw<{
    rows: { month: string; anchored: number; pending: number; failed: number; at: Date }[];
  }>(
    `select to_char(created_at at time zone 'UTC', 'YYYY-MM') as month,
            count(*) filter (where status = 'anchored')::int as anchored,
            count(*) filter (where status = 'pending')::int as pending,
            count(*) filter (where status = 'failed')::int as failed, max(created_at) as at
       from fiscal_anchors
      where tenant_id = ? and environment = ? and coalesce(sub_tenant_id, ?::uuid) = ?::uuid
      group by 1`,
    [chain.tenantId, chain.environment, NO_SUB_TENANT, chain.subTenantId ?? NO_SUB_TENANT],
  );
  for (const s of stamps) {
    measures.push({
      at: iso(s.at),
      rank: 4,
      domain: 'Horodatage RFC 3161',
      measure: `Horodatage des clôtures de ${month(s.month)}`,
      detail: `${s.anchored} horodatée(s), ${s.pending} en attente, ${s.failed} en échec`,
    });
  }

  const { rows: checks } = await tx.raw<{
    rows: { month: string; n: number; failed: number; first_broken: number | null; at: Date }[];
  }>(
    `select to_char(checked_at at time zone 'UTC', 'YYYY-MM') as month, count(*)::int as n,
            count(*) filter (where not valid)::int as failed,
            min(first_broken_sequence) filter (where not valid) as first_broken, max(checked_at) as at
       from fiscal_integrity_checks
      where tenant_id = ? and environment = ? and (sub_tenant_id is null or sub_tenant_id = ?::uuid)
      group by 1`,
    [chain.tenantId, chain.environment, chain.subTenantId ?? NO_SUB_TENANT],
  );
  for (const c of checks) {
    measures.push({
      at: iso(c.at),
      rank: 7,
      domain: "Contrôle d'intégrité",
      measure: `${c.n} contrôle(s) d'intégrité en ${month(c.month)}`,
      detail:
        c.failed === 0
          ? 'Tous concluants : aucune rupture'
          : `${c.failed} en échec (première rupture au numéro ${c.first_broken ?? '—'})`,
    });
  }
  return measures.sort((a, b) => a.at.localeCompare(b.at) || a.rank - b.rank);
}
