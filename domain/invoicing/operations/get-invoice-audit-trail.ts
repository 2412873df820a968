import type { InvoiceAuditTrail } from '../../../schemas/invoice-reading.js';
import type { InvoiceIdInput } from '../../../schemas/invoices.js';
import { auditTrailIntact, readAuditTrail } from '../../audit/index.js';
import { defineQuery } from '../../shared/operation.js';
import { findReadableInvoice, invoiceReaderOf } from '../invoice-queries.js';

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
    const { invoice } = await findReadableInvoice(ctx.tx, invoiceReaderOf(ctx.caller), input.id);
    const rows = await readAuditTrail(ctx.tx, 'invoice', invoice.id);
    return {
      data: rows.map((row) => ({
        action: row.action,
        details: row.details,
        actor_ip: row.actor_ip,
        created_at: row.created_at.toISOString(),
      })),
      integrity_valid: auditTrailIntact('invoice', invoice.id, rows),
    };
  },
});
