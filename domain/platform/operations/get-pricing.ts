import type { EmptyInput } from '../../../schemas/common.js';
import type { Pricing } from '../../../schemas/platform.js';
import { PRICE_CURRENCY, UNIT_PRICES } from '../../billing/index.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { defineQuery } from '../../shared/operation.js';

export const getPricing = defineQuery<EmptyInput, Pricing>({
  name: 'get_pricing',
  summary: 'Production unit prices (invoice, signature, credit note) in EUR excluding VAT. Sandbox is free.',
  input: 'EmptyInput',
  output: 'Pricing',
  callers: ANY_CALLER,
  transactional: false,
  async run() {
    return {
      invoice_price: Number(UNIT_PRICES.invoice),
      signature_price: Number(UNIT_PRICES.signature),
      credit_note_price: Number(UNIT_PRICES.credit_note),
      currency: PRICE_CURRENCY,
    };
  },
});
