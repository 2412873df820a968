import type { CreditNoteListInput } from '../../../schemas/credit-notes.js';
import { invoiceOwnerOf, invoiceReaderOf } from '../../invoicing/index.js';
import { defineQuery } from '../../shared/operation.js';
import type { Page } from '../../shared/pagination.js';
import { listCreditNotePage } from '../credit-note-store.js';
import { type CreditNoteView, toCreditNoteView } from '../credit-note-view.js';

export const listSubTenantCreditNotes = defineQuery<CreditNoteListInput, Page<CreditNoteView>>({
  name: 'list_sub_tenant_credit_notes',
  summary:
    "List one sub-tenant's credit notes in the key's environment, newest first, with the filters and pagination of GET /v1/credit-notes. A sub-tenant outside the tenant answers 404.",
  input: 'CreditNoteListInput',
  output: 'CreditNotePage',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const owner = await invoiceOwnerOf(ctx.tx, ctx.caller, input.subTenantId);
    const page = await listCreditNotePage(ctx.tx, invoiceReaderOf(ctx.caller), {
      ...input,
      subTenantId: owner.subTenantId!,
    });
    return { ...page, data: page.data.map(toCreditNoteView) };
  },
});
