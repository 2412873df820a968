import type { ConvertInvoiceInput, InvoiceConversion } from '../../../schemas/invoices.js';
import { actorOf } from '../../audit/index.js';
import { renderFormat } from '../../documents/index.js';
import { defineCommand } from '../../shared/operation.js';
import { saveInvoiceDocument } from '../document-store.js';
import { auditInvoice } from '../invoice-audit.js';
import { signDownloadLink } from '../invoice-files.js';
import { findReadableInvoice, invoiceReaderOf } from '../invoice-queries.js';
import { toInvoiceDocument } from '../to-document.js';

/** Schema `InvoiceConversion`: the type comes from the schema. */
export type { InvoiceConversion };

/**
 * Produces another electronic format of an invoice from the same stored data (the fiscal fields
 * never change) and stores it beside the others: later downloads of `xml` or `facturx` find it.
 * Rendering is pure and quick, so it happens in the request.
 */
export const convertInvoice = defineCommand<ConvertInvoiceInput, InvoiceConversion>({
  name: 'convert_invoice',
  summary:
    'Produce the invoice in another format (facturx, ubl or cii) from the same data, keep it with its files, and return a download link valid 15 minutes.',
  input: 'ConvertInvoiceInput',
  output: 'InvoiceConversion',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const stored = await findReadableInvoice(ctx.tx, invoiceReaderOf(ctx.caller), input.invoice_id, {
      forUpdate: true,
    });
    const { invoice } = stored;
    const target = input.target_format;
    const files = renderFormat(toInvoiceDocument(stored), target, invoice.profile);
    for (const file of files) {
      await saveInvoiceDocument(ctx.tx, {
        tenantId: invoice.tenant_id,
        invoiceId: invoice.id,
        kind: file.kind,
        contentType: file.contentType,
        filename: file.filename,
        content: file.content,
      });
    }
    const summary = files.map((f) => ({ kind: f.kind, byte_size: f.content.length, sha256: f.sha256 }));
    await auditInvoice(ctx.tx, invoice, {
      action: 'invoice.converted',
      details: { source_format: invoice.output_format, target_format: target, files: summary },
      actorIp: ctx.caller.ip ?? null,
      actor: actorOf(ctx.caller),
      now: ctx.clock.now(),
    });
    return {
      invoice_id: invoice.id,
      source_format: invoice.output_format,
      target_format: target,
      files: summary,
      ...signDownloadLink(ctx, invoice, files[0].kind),
    };
  },
});
