import type { CreateCreditNoteInput } from '../../../schemas/credit-notes.js';
import { invoiceOwnerOf, invoiceReaderOf } from '../../invoicing/index.js';
import { defineCommand } from '../../shared/operation.js';
import type { CreditNoteView } from '../credit-note-view.js';
import { issueCreditNote } from '../issue-credit-note.js';

export const createSubTenantCreditNote = defineCommand<CreateCreditNoteInput, CreditNoteView>({
  name: 'create_sub_tenant_credit_note',
  summary:
    "Create a draft credit note against one of the sub-tenant's invoices (its `invoice_id`, in the key's environment), capped at what remains creditable. A sub-tenant or invoice outside the tenant answers 404.",
  input: 'CreateCreditNoteInput',
  output: 'CreditNote',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    // The path's sub-tenant must be the tenant's, in the key's environment (404 otherwise).
    const owner = await invoiceOwnerOf(ctx.tx, ctx.caller, input.subTenantId);
    return issueCreditNote(ctx, invoiceReaderOf(ctx.caller), { ...input, subTenantId: owner.subTenantId! });
  },
});
