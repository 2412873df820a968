import type { CiiProfile, InvoiceDocument } from '../invoice-document.js';
import { layoutInvoice } from './layout-invoice.js';
import { pdfMetadata } from './render-invoice-pdf.js';
import { writePdf } from './write-pdf.js';

/** XMP `fx:ConformanceLevel` of each Factur-X profile (Factur-X 1.0 specification, §7.3). */
export const FACTURX_CONFORMANCE_LEVELS: Readonly<Record<CiiProfile, string>> = {
  minimum: 'MINIMUM',
  basicwl: 'BASIC WL',
  basic: 'BASIC',
  en16931: 'EN 16931',
  extended: 'EXTENDED',
};

/**
 * A Factur-X invoice: the readable invoice as PDF/A-3b with the CII XML embedded as `factur-x.xml`
 * (an associated file with /AFRelationship /Data, which Factur-X allows for every profile) and
 * the fx: XMP properties naming the profile. `ciiXml` must be the CII of the same document, in that
 * profile: this function packages it and does not read it.
 */
export function writeFacturX(doc: InvoiceDocument, ciiXml: Buffer, profile: CiiProfile): Buffer {
  const level = FACTURX_CONFORMANCE_LEVELS[profile];
  return writePdf(layoutInvoice(doc), pdfMetadata(doc, level), {
    name: 'factur-x.xml',
    mimeType: 'text/xml',
    description: 'Factur-X invoice',
    relationship: 'Data',
    data: ciiXml,
  });
}
