import type { Knex } from 'knex';
import type { Balance } from '../../schemas/billing.js';
import { moneyToJson } from './money.js';

interface BalanceRow {
  amount: string;
  currency: string;
  auto_reload_enabled: boolean;
  auto_reload_threshold: string | null;
  auto_reload_amount: string | null;
  low_balance_alert_threshold: string;
  critical_balance_alert_threshold: string;
}

/** Schema `Balance`: the type comes from the schema. */
export type BalanceView = Balance;

const nullableMoney = (value: string | null) => (value === null ? null : moneyToJson(value));

/** The balance of the caller's tenant (row-level security keeps it to that one row). */
export async function readBalance(tx: Knex, tenantId: string): Promise<BalanceView | undefined> {
  const row = await tx('balances').where({ tenant_id: tenantId }).first<BalanceRow>();
  if (!row) return undefined;
  return {
    amount: moneyToJson(row.amount),
    currency: row.currency,
    auto_reload_enabled: row.auto_reload_enabled,
    auto_reload_threshold: nullableMoney(row.auto_reload_threshold),
    auto_reload_amount: nullableMoney(row.auto_reload_amount),
    low_balance_alert_threshold: moneyToJson(row.low_balance_alert_threshold),
    critical_balance_alert_threshold: moneyToJson(row.critical_balance_alert_threshold),
  };
}
