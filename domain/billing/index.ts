/**
 * Public surface of the billing context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { BALANCE_TRANSACTION_TYPES, type BalanceTransactionType } from './balance-store.js';
export { MONTH_PATTERN } from './billing-period.js';
export { VOLUME_DISCOUNT_TIERS } from './billing-totals.js';
export { chargeFor, refundSignature } from './charge.js';
export { Decimal, moneyToJson, toMoney } from './money.js';
export type { PaymentProvider, PaymentProviders } from './payment-provider.js';
export { paymentProvidersFor } from './payment-providers.js';
export { PRICE_CURRENCY, UNIT_PRICES } from './pricing.js';
