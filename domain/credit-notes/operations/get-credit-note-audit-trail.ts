import type { CreditNoteIdInput } from '../../../schemas/credit-notes.js';
import type { InvoiceAuditTrail } from '../../../schemas/invoice-reading.js';
import { auditTrailView } from '../../audit/index.js';
import { invoiceReaderOf } from '../../invoicing/index.js';
import { defineQuery } from '../../shared/operation.js';
import { findReadableCreditNoteRow } from '../credit-note-store.js';

/** A credit note's audit trail, read as the invoice's is (the MCP `get_audit_trail` tool). */
export const getCreditNoteAuditTrail = defineQuery<CreditNoteIdInput, InvoiceAuditTrail>({
  name: 'get_credit_note_audit_trail',
  summary:
    "A credit note's audit trail, oldest first (created, sent, deleted, ...), and `integrity_valid`: whether its hash chain, recomputed now, still matches every stored entry.",
  input: 'CreditNoteIdInput',
  output: 'InvoiceAuditTrail',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const creditNote = await findReadableCreditNoteRow(ctx.tx, invoiceReaderOf(ctx.caller), input.id);
    return auditTrailView(ctx.tx, 'credit_note', creditNote.id);
  },
});
