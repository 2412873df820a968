/** Production unit prices in EUR, excluding VAT (spec "What the service does", item 4). */
export const UNIT_PRICES = {
  invoice: '0.04',
  credit_note: '0.04',
  signature: '1.20',
} as const;

export const PRICE_CURRENCY = 'EUR';

export type Chargeable = keyof typeof UNIT_PRICES;
