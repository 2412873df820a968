import type { RemainingCreditableInput } from '../../../schemas/credit-notes.js';
import { findReadableInvoice, invoiceReaderOf } from '../../invoicing/index.js';
import { defineQuery } from '../../shared/operation.js';
import { type RemainingCreditableView, readBalance, toRemainingCreditableView } from '../remaining-creditable.js';

export const getRemainingCreditable = defineQuery<RemainingCreditableInput, RemainingCreditableView>({
  name: 'get_remaining_creditable',
  summary:
    'What is left to credit on an invoice: in total (amount excluding VAT) and per line (quantity and amount). A credit note can credit at most this; deleted draft credit notes give their amount back.',
  input: 'RemainingCreditableInput',
  output: 'RemainingCreditable',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const { invoice, lines } = await findReadableInvoice(ctx.tx, invoiceReaderOf(ctx.caller), input.invoice);
    return toRemainingCreditableView(await readBalance(ctx.tx, invoice, lines));
  },
});
