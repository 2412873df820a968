import type { Knex } from 'knex';

/**
 * The tables a request can write its domain rows to (migrations/), and pg-boss's jobs. A refused
 * request must leave every count unchanged. Bookkeeping that a refusal may write on purpose (rate
 * counters, idempotency claims, login throttling, access tokens) is left out.
 */
export const DOMAIN_TABLES = [
  'tenants',
  'users',
  'api_keys',
  'balances',
  'balance_transactions',
  'events',
  'sub_tenants',
  'companies',
  'fiscal_entries',
  'fiscal_kill_switches',
  'fiscal_closings',
  'fiscal_rules',
  'invoices',
  'invoice_lines',
  'invoice_documents',
  'invoice_lifecycle_events',
  'audit_entries',
  'credit_notes',
  'credit_note_lines',
  'webhook_endpoints',
  'webhook_deliveries',
  'incoming_invoices',
  'incoming_invoice_events',
  'inbound_events',
  'pgboss.job',
] as const;

export type DomainCounts = Record<string, number>;

const SQL = `select json_build_object(${DOMAIN_TABLES.map((t) => `'${t}', (select count(*) from ${t})`).join(', ')}) as counts`;

/** Every count in one statement, with the owner's connection (outside row-level security). */
export async function domainCounts(db: Knex): Promise<DomainCounts> {
  const { rows } = await db.raw<{ rows: { counts: DomainCounts }[] }>(SQL);
  return rows[0]!.counts;
}

/** `table: before → after` for each count that moved. */
export function countChanges(before: DomainCounts, after: DomainCounts): string[] {
  return Object.keys(after)
    .filter((table) => before[table] !== after[table])
    .map((table) => `${table}: ${before[table]} → ${after[table]}`);
}
