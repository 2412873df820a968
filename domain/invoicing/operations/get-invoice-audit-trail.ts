import type { InvoiceAuditTrail } from '../../../schemas/invoice-reading.js';
import type { InvoiceIdInput } from '../../../schemas/invoices.js';
import { auditTrailView } from '../../audit/index.js';
import { defineQuery } from '../../shared/operation.js';
import { findReadableInvoiceRow, invoiceReaderOf } from '../invoice-queries.js';

/** Schema `InvoiceAuditTrail`: the type comes from the schema. */
export type InvoiceAuditTrailView = InvoiceAuditTrail;

export const getInvoiceAuditTrail = defineQuery<InvoiceIdInput, InvoiceAuditTrailView>({
  name: 'get_invoice_audit_trail',
  summary:
    "An invoice's audit trail, oldest first (created, updated, deleted, ...), and `integrity_valid`: whether its hash chain, recomputed now, still matches every stored entry.",
  input: 'InvoiceIdInput',
  output: 'InvoiceAuditTrail',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const invoice = await findReadableInvoiceRow(ctx.tx, invoiceReaderOf(ctx.caller), input.id);
    return auditTrailView(ctx.tx, 'invoice', invoice.id);
  },
});
