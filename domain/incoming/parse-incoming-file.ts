import { createHash } from 'node:crypto';
import { CII_ROOT, UBL_CREDIT_NOTE_ROOT, UBL_INVOICE_ROOT } from './invoice-namespaces.js';
import { parseCii } from './parse-cii.js';
import { parseUbl } from './parse-ubl.js';
import { IncomingParseError, type ParsedInvoice } from './parsed-invoice.js';
import { extractInvoiceXml } from './pdf-attachments.js';
import { readXml, XmlRefused } from './safe-xml.js';
import { hasName } from './xml-path.js';

/** Spec "Invoice (creation body)": files of at most 10 MB; incoming files take the same limit. */
export const INCOMING_FILE_MAX_BYTES = 10 * 1024 * 1024;

export const sha256Hex = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** A PDF by its signature (within the first KB, as readers allow); else XML. */
export const isPdf = (bytes: Buffer): boolean => bytes.subarray(0, 1024).includes('%PDF-');

/**
 * Reads an incoming invoice file: a Factur-X PDF (its embedded CII), a UBL 2.1 Invoice/CreditNote
 * or a CII CrossIndustryInvoice, told apart by the root element's namespace URI and local name
 * (an `<Invoice>` in any other namespace is not UBL). Pure. The DTD check runs on the text before
 * any parsing, so a DOCTYPE (external entity, billion laughs) is refused in constant work per
 * byte. Throws IncomingParseError with a message for the caller (422) or for `parse_error`.
 */
export function parseIncomingFile(bytes: Buffer): ParsedInvoice {
  if (bytes.length === 0) throw new IncomingParseError('the file is empty');
  if (bytes.length > INCOMING_FILE_MAX_BYTES) throw new IncomingParseError('the file is larger than 10 MB');
  try {
    if (isPdf(bytes)) {
      const parsed = parseXmlInvoice(extractInvoiceXml(bytes));
      if (parsed.format !== 'cii') throw new IncomingParseError('a Factur-X PDF must embed a CII invoice');
      return { ...parsed, format: 'facturx' };
    }
    return parseXmlInvoice(bytes);
  } catch (err) {
    if (err instanceof XmlRefused) throw new IncomingParseError(err.message);
    throw err;
  }
}

function parseXmlInvoice(xml: Buffer): ParsedInvoice {
  const root = readXml(xml);
  if (hasName(root, UBL_INVOICE_ROOT) || hasName(root, UBL_CREDIT_NOTE_ROOT)) return parseUbl(root);
  if (hasName(root, CII_ROOT)) return parseCii(root);
  const namespace = root.ns ? `namespace ${root.ns.slice(0, 120)}` : 'no namespace';
  throw new IncomingParseError(
    `not an invoice: the root element is <${root.local.slice(0, 120)}> in ${namespace} (expected UBL Invoice or CreditNote, or CII CrossIndustryInvoice, in their namespaces)`,
  );
}
