import type { EmptyInput } from '../../../schemas/common.js';
import type { AdminQuoteStats } from '../../../schemas/quotes.js';
import { QUOTE_STATUSES } from '../../../schemas/quotes.js';
import { Decimal, moneyToJson } from '../../billing/index.js';
import { defineQuery } from '../../shared/operation.js';
import { adminQuoteStats, readAcrossTenants } from '../admin-quotes.js';

const ratio = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 10_000) / 10_000);

export const getAdminQuoteStats = defineQuery<EmptyInput, AdminQuoteStats>({
  name: 'get_admin_quote_stats',
  summary:
    'Quotes of every tenant: how many in each status, their amounts excluding VAT (all, accepted, converted, invoiced), the acceptance rate (over those answered) and the conversion rate (over those accepted).',
  input: 'EmptyInput',
  output: 'AdminQuoteStats',
  callers: ['user'],
  permission: 'admin access',
  async run(_input, ctx) {
    await readAcrossTenants(ctx.tx);
    const { byStatus, invoicedHt } = await adminQuoteStats(ctx.tx);
    const count = Object.fromEntries(QUOTE_STATUSES.map((s) => [s, 0])) as Record<string, number>;
    const ht = Object.fromEntries(QUOTE_STATUSES.map((s) => [s, new Decimal(0)])) as Record<string, Decimal>;
    for (const row of byStatus) {
      count[row.status] = Number(row.n);
      ht[row.status] = new Decimal(row.ht ?? 0);
    }
    const accepted = count.accepted + count.converted;
    const answered = accepted + count.refused;
    return {
      total: Object.values(count).reduce((s, n) => s + n, 0),
      by_status: count,
      total_ht: moneyToJson(Object.values(ht).reduce((s, d) => s.plus(d), new Decimal(0))),
      accepted_ht: moneyToJson(ht.accepted.plus(ht.converted)),
      converted_ht: moneyToJson(ht.converted),
      invoiced_ht: moneyToJson(invoicedHt),
      acceptance_rate: ratio(accepted, answered),
      conversion_rate: ratio(count.converted, accepted),
    };
  },
});
