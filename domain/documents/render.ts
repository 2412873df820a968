import { createHash } from 'node:crypto';
import { writeCii } from './cii.js';
import type { CiiProfile, InvoiceDocument, OutputFormat } from './invoice-document.js';
import { renderInvoicePdf, writeFacturX } from './pdf/index.js';
import { writeUbl } from './ubl.js';

export interface RenderedFile {
  /** The generated kinds of `invoice_documents.kind`. */
  kind: 'pdf' | 'facturx' | 'ubl' | 'cii';
  contentType: string;
  filename: string;
  content: Buffer;
  sha256: string;
}

const file = (kind: RenderedFile['kind'], contentType: string, filename: string, content: Buffer): RenderedFile => ({
  kind,
  contentType,
  filename,
  content,
  sha256: createHash('sha256').update(content).digest('hex'),
});

/** A file name from the invoice number: letters, digits, dot, dash and underscore only. */
export const fileStem = (number: string): string => number.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'invoice';

/**
 * The files of one format, from the document model; pure. Factur-X is a readable PDF/A-3 that
 * embeds the CII, so it also yields that CII; UBL and CII come with the readable PDF.
 */
export function renderFormat(
  doc: InvoiceDocument,
  format: OutputFormat,
  profile: CiiProfile = 'en16931',
): RenderedFile[] {
  const stem = fileStem(doc.number);
  const cii = () => file('cii', 'application/xml', `${stem}.cii.xml`, writeCii(doc, profile));
  switch (format) {
    case 'facturx': {
      const xml = cii();
      return [file('facturx', 'application/pdf', `${stem}.facturx.pdf`, writeFacturX(doc, xml.content, profile)), xml];
    }
    case 'ubl':
      return [
        file('ubl', 'application/xml', `${stem}.ubl.xml`, writeUbl(doc)),
        file('pdf', 'application/pdf', `${stem}.pdf`, renderInvoicePdf(doc)),
      ];
    case 'cii':
      return [cii(), file('pdf', 'application/pdf', `${stem}.pdf`, renderInvoicePdf(doc))];
  }
}
