import type { BillingInvoiceIdInput, GeneratedBillingInvoiceDocuments } from '../../../schemas/billing-invoices.js';
import { renderFormat } from '../../documents/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { toBillingDocument } from '../billing-invoice-document.js';
import { findBillingInvoice, recordBillingInvoiceFailure, storeBillingInvoiceFiles } from '../billing-invoice-store.js';
import { moneyToJson } from '../money.js';

/**
 * Renders a billing invoice's Factur-X (PDF/A-3 with its EN 16931 CII) and stores it, in the worker.
 * Idempotent: an invoice already `ready` is skipped. Once ready, the tenant's production webhooks
 * get `billing_invoice.created`, in the same transaction. Rendering is pure, so a failure is recorded on
 * the invoice (`failed`, with the reason) rather than retried.
 */
export const generateBillingInvoiceDocuments = defineCommand<BillingInvoiceIdInput, GeneratedBillingInvoiceDocuments>({
  name: 'generate_billing_invoice_documents',
  summary: "Render and store a billing invoice's Factur-X (worker step of the monthly run).",
  input: 'BillingInvoiceIdInput',
  output: 'GeneratedBillingInvoiceDocuments',
  callers: ['system'],
  async run({ id }, ctx) {
    const row = await findBillingInvoice(ctx.tx, ctx.caller.tenantId!, id, { forUpdate: true });
    if (!row) throw new AppError('NOT_FOUND', `No billing invoice ${id}.`, { retryable: false });
    if (row.documents_status === 'ready') return { id, documents_status: 'skipped' as const };
    const now = ctx.clock.now();
    try {
      const files = renderFormat(toBillingDocument(row), 'facturx');
      const pdf = files.find((f) => f.kind === 'facturx')!;
      const cii = files.find((f) => f.kind === 'cii')!;
      await storeBillingInvoiceFiles(ctx.tx, id, { pdf: pdf.content, pdfSha256: pdf.sha256, cii: cii.content }, now);
      await ctx.events.emit(
        'billing_invoice.created',
        {
          id,
          number: row.number,
          month: row.period,
          total_ttc: moneyToJson(row.total_ttc),
          amount_due: moneyToJson(row.amount_due),
          currency: row.currency,
        },
        { tenantId: row.tenant_id, environment: 'production' },
      );
      return { id, documents_status: 'ready' as const };
    } catch (err) {
      ctx.log.error({ err, billingInvoiceId: id }, 'billing invoice rendering failed');
      await recordBillingInvoiceFailure(ctx.tx, id, (err as Error).message, now);
      return { id, documents_status: 'failed' as const };
    }
  },
});
