import type { BillingInvoiceIdInput } from '../../../schemas/billing-invoices.js';
import { AppError } from '../../shared/app-error.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../../tenants/index.js';
import { readBillingInvoicePdf } from '../billing-invoice-store.js';

export const downloadBillingInvoice = defineQuery<BillingInvoiceIdInput, FileOutput>({
  name: 'download_billing_invoice',
  summary:
    'The billing invoice as a Factur-X PDF/A-3 (EN 16931 CII embedded). The worker renders it right after issuing: until then 409 DOCUMENT_NOT_READY.',
  input: 'BillingInvoiceIdInput',
  output: 'BillingInvoiceFile',
  callers: ['tenant'],
  async run({ id }, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'download_billing_invoice');
    const file = await readBillingInvoicePdf(ctx.tx, tenantId, id);
    if (!file) throw new AppError('NOT_FOUND', 'No such billing invoice.');
    if (file.documents_status === 'failed') {
      throw new AppError('DOCUMENT_GENERATION_FAILED', 'Rendering this billing invoice failed; the operator is told.');
    }
    if (!file.pdf)
      throw new AppError('DOCUMENT_NOT_READY', 'The billing invoice is being rendered: retry in a moment.');
    return { content: file.pdf, contentType: 'application/pdf', filename: `${file.number}.facturx.pdf` };
  },
});
