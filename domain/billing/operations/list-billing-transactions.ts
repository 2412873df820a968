import type { BillingTransaction, BillingTransactionListInput } from '../../../schemas/billing-usage.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { tenantWideCaller } from '../../tenants/index.js';
import type { BalanceTransactionType } from '../balance-store.js';
import { moneyToJson } from '../money.js';

interface TransactionRow {
  id: string;
  type: BalanceTransactionType;
  amount: string;
  balance_after: string;
  currency: string;
  reason: string | null;
  reference_type: string | null;
  reference_id: string | null;
  created_at: Date;
}

const toView = (row: TransactionRow): BillingTransaction => ({
  id: row.id,
  type: row.type,
  amount: moneyToJson(row.amount),
  balance_after: moneyToJson(row.balance_after),
  currency: row.currency,
  reason: row.reason,
  reference_type: row.reference_type,
  reference_id: row.reference_id,
  created_at: row.created_at.toISOString(),
});

/** A Paris day's first instant, in SQL. */
const PARIS_DAY_START = "(?::date)::timestamp at time zone 'Europe/Paris'";

export const listBillingTransactions = defineQuery<BillingTransactionListInput, Page<BillingTransaction>>({
  name: 'list_billing_transactions',
  summary:
    "Every movement of the tenant's prepaid balance, newest first, each with the balance it left: the debits of paid operations, top-ups, the operator's manual credits and debits, and the monthly billing's discount credit and VAT debit (filters: type, Europe/Paris days, reference).",
  input: 'BillingTransactionListInput',
  output: 'BillingTransactionPage',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'list_billing_transactions');
    if (input.date_from && input.date_to && input.date_from > input.date_to) {
      throw AppError.validation({ date_to: ['must be on or after date_from'] });
    }
    const query = ctx
      .tx('balance_transactions')
      .where({ tenant_id: tenantId })
      .modify((q) => {
        if (input.type) q.andWhere('type', input.type);
        if (input.reference_type) q.andWhere('reference_type', input.reference_type);
        if (input.reference_id) q.andWhere('reference_id', input.reference_id);
        if (input.date_from) q.andWhereRaw(`created_at >= ${PARIS_DAY_START}`, [input.date_from]);
        if (input.date_to) q.andWhereRaw(`created_at < ${PARIS_DAY_START} + interval '1 day'`, [input.date_to]);
      })
      .select(
        'id',
        'type',
        'amount',
        'balance_after',
        'currency',
        'reason',
        'reference_type',
        'reference_id',
        'created_at',
      )
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return paginate(query, { page: input.page ?? 1, per_page: input.per_page ?? 25 }, toView);
  },
});
