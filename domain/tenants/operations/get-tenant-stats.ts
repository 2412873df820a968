import type { EmptyInput } from '../../../schemas/common.js';
import type { TenantStats } from '../../../schemas/tenant-profile.js';
import { BALANCE_TRANSACTION_TYPES, type BalanceTransactionType, moneyToJson } from '../../billing/index.js';
import { countDocuments } from '../../invoicing/index.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';

/** Schema `TenantStats`: the type comes from the schema. */
export type TenantStatsView = TenantStats;

const day = (date: Date) => date.toISOString().slice(0, 10);

export const getTenantStats = defineQuery<EmptyInput, TenantStatsView>({
  name: 'get_tenant_stats',
  summary:
    "Counts for the calling tenant in the caller's environment: sub-tenants by status, live companies, invoices and credit notes (its own and its sub-tenants'), working keys, the balance, and this month's balance transactions by type with their amounts.",
  input: 'EmptyInput',
  output: 'TenantStats',
  callers: ['tenant'],
  async run(_input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'get_tenant_stats');
    const { tx } = ctx;
    const now = ctx.clock.now();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

    const subTenants = await tx('sub_tenants')
      .where({ tenant_id: tenantId, environment })
      .select('status')
      .count<{ status: string; n: string }[]>({ n: '*' })
      .groupBy('status');
    const bySubStatus = Object.fromEntries(subTenants.map((r) => [r.status, Number(r.n)]));

    // Companies carry no environment: the tenant's own, plus those of its sub-tenants of this environment.
    const [companies] = await tx('companies as c')
      .leftJoin('sub_tenants as s', 's.id', 'c.sub_tenant_id')
      .where('c.tenant_id', tenantId)
      .whereNull('c.deleted_at')
      .where((q) => q.whereNull('c.sub_tenant_id').orWhere('s.environment', environment))
      .count<{ n: string }[]>({ n: '*' });

    const documents = await countDocuments(tx, { tenantId, environment });

    const keys = await tx('api_keys')
      .where({ tenant_id: tenantId, environment, status: 'active' })
      .whereNull('user_id')
      .whereNull('sub_tenant_id')
      .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now))
      .select('kind')
      .count<{ kind: string; n: string }[]>({ n: '*' })
      .groupBy('kind');
    const byKind = Object.fromEntries(keys.map((r) => [r.kind, Number(r.n)]));

    const balance = await tx('balances')
      .where({ tenant_id: tenantId })
      .first<{ amount: string; currency: string } | undefined>('amount', 'currency');

    const movements: { type: BalanceTransactionType; n: string; total: string }[] = await tx('balance_transactions')
      .where({ tenant_id: tenantId })
      .where('created_at', '>=', monthStart)
      .where('created_at', '<', nextMonth)
      .select('type', tx.raw('count(*) as n'), tx.raw('sum(amount) as total'))
      .groupBy('type');
    const transactions = Object.fromEntries(
      BALANCE_TRANSACTION_TYPES.map((type) => [type, { count: 0, amount: 0 }]),
    ) as TenantStatsView['current_month']['transactions'];
    for (const m of movements) transactions[m.type] = { count: Number(m.n), amount: moneyToJson(m.total) };

    return {
      environment,
      sub_tenants: {
        total: Object.values(bySubStatus).reduce((a, b) => a + b, 0),
        active: bySubStatus.active ?? 0,
        suspended: bySubStatus.suspended ?? 0,
      },
      companies: { total: Number(companies.n) },
      ...documents,
      api_keys: { secret: byKind.secret ?? 0, publishable: byKind.publishable ?? 0 },
      balance: { amount: moneyToJson(balance?.amount ?? '0'), currency: balance?.currency ?? 'EUR' },
      current_month: { from: day(monthStart), to: day(new Date(nextMonth.getTime() - 1)), transactions },
    };
  },
});
