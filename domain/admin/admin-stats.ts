import type { Knex } from 'knex';
import type { AdminStats } from '../../schemas/admin.js';

type Environment = 'sandbox' | 'production';
type ByEnvironment = Record<Environment, number>;

const n = (value: unknown): number => Number(value ?? 0);

/** Rows of `table` per environment; `live` leaves deleted ones out. */
async function perEnvironment(tx: Knex, table: string, live?: (q: Knex.QueryBuilder) => void): Promise<ByEnvironment> {
  const query = tx(table).select('environment').count<{ environment: Environment; n: string }[]>({ n: '*' });
  live?.(query);
  const rows = await query.groupBy('environment');
  const counts: ByEnvironment = { sandbox: 0, production: 0 };
  for (const row of rows) counts[row.environment] = n(row.n);
  return counts;
}

/**
 * Figures of the whole platform (the transaction acts across tenants). Revenue is what the service
 * charged per document (`amount_charged` of invoices, credit notes and signature requests), by UTC
 * month of the document and environment, over the last `months` months.
 */
export async function platformStats(tx: Knex, months: number, now: Date): Promise<AdminStats> {
  const tenants = await tx('tenants').first(
    tx.raw('count(*)::int as total'),
    tx.raw("count(*) filter (where kind = 'platform')::int as platforms"),
    tx.raw("count(*) filter (where kind = 'workspace')::int as workspaces"),
    tx.raw('count(*) filter (where not is_active)::int as inactive'),
  );
  const users = await tx('users').first(
    tx.raw('count(*)::int as total'),
    tx.raw('count(*) filter (where is_active)::int as active'),
    tx.raw('count(*) filter (where not is_active)::int as disabled'),
    tx.raw("count(*) filter (where 'admin access' = any(permissions))::int as admins"),
  );
  const companies = await tx('companies')
    .whereNull('deleted_at')
    .first(
      tx.raw('count(*)::int as total'),
      tx.raw("count(*) filter (where status = 'active')::int as active"),
      tx.raw("count(*) filter (where status = 'inactive')::int as inactive"),
    );
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (months - 1), 1));
  const { rows: revenue } = await tx.raw<{
    rows: { month: string; environment: Environment; invoices: string; credit_notes: string; signatures: string }[];
  }>(
    `select to_char(date_trunc('month', created_at at time zone 'UTC'), 'YYYY-MM') as month, environment,
            coalesce(sum(amount_charged) filter (where kind = 'invoice'), 0) as invoices,
            coalesce(sum(amount_charged) filter (where kind = 'credit_note'), 0) as credit_notes,
            coalesce(sum(amount_charged) filter (where kind = 'signature'), 0) as signatures
     from (
       select 'invoice' as kind, environment, amount_charged, created_at from invoices where status <> 'deleted'
       union all
       select 'credit_note', environment, amount_charged, created_at from credit_notes where deleted_at is null
       union all
       select 'signature', environment, amount_charged, created_at from signature_requests
         where status <> 'failed' -- refunded (docs/decisions/0092)
     ) charged
     where created_at >= ?
     group by 1, 2
     order by 1 desc, 2`,
    [since],
  );
  return {
    tenants: {
      total: n(tenants.total),
      platforms: n(tenants.platforms),
      workspaces: n(tenants.workspaces),
      inactive: n(tenants.inactive),
    },
    users: { total: n(users.total), active: n(users.active), disabled: n(users.disabled), admins: n(users.admins) },
    companies: { total: n(companies.total), active: n(companies.active), inactive: n(companies.inactive) },
    sub_tenants: await perEnvironment(tx, 'sub_tenants'),
    invoices: await perEnvironment(tx, 'invoices', (q) => q.whereNot('status', 'deleted')),
    credit_notes: await perEnvironment(tx, 'credit_notes', (q) => q.whereNull('deleted_at')),
    signatures: await perEnvironment(tx, 'signature_requests'),
    revenue: revenue.map((row) => {
      const cents = (value: string) => Math.round(Number(value) * 100);
      const parts = [cents(row.invoices), cents(row.credit_notes), cents(row.signatures)];
      return {
        month: row.month,
        environment: row.environment,
        invoices: parts[0] / 100,
        credit_notes: parts[1] / 100,
        signatures: parts[2] / 100,
        total: (parts[0] + parts[1] + parts[2]) / 100,
        currency: 'EUR' as const,
      };
    }),
  };
}
