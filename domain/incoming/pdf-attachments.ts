import { IncomingParseError } from './parsed-invoice.js';
import { textOf } from './pdf-lexer.js';
import { decodeStream, dictOf, readObjects } from './pdf-objects.js';

/**
 * Reads the invoice XML embedded in a Factur-X / ZUGFeRD PDF (PDF/A-3 associated file): finds the
 * file specifications (a dictionary with `/EF`) among the document's objects, including those
 * packed in object streams, picks the one named `factur-x.xml` (or a ZUGFeRD / XRechnung name),
 * and decodes its embedded file stream (FlateDecode via node:zlib). No rendering, no JavaScript,
 * no external references: only objects are read, by the linear reader of pdf-objects.ts.
 */

/** Names Factur-X 1.0 and ZUGFeRD 1/2 give the embedded invoice XML. */
const INVOICE_XML_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'order-x.xml'];

/** The embedded invoice XML of a Factur-X / ZUGFeRD PDF; throws IncomingParseError when there is none. */
export function extractInvoiceXml(pdf: Buffer): Buffer {
  const objects = readObjects(pdf);
  const candidates: { name: string; ref: number }[] = [];
  for (const object of objects.values()) {
    const dict = dictOf(object);
    const ef = dict?.get('EF');
    if (!dict || ef?.kind !== 'dict') continue;
    const file = ef.entries.get('UF') ?? ef.entries.get('F');
    if (file?.kind !== 'ref') continue;
    const name = textOf(dict.get('UF')) ?? textOf(dict.get('F')) ?? '';
    candidates.push({ name: name.toLowerCase(), ref: file.number });
  }
  const chosen =
    candidates.find((c) => INVOICE_XML_NAMES.includes(c.name)) ?? candidates.find((c) => c.name.endsWith('.xml'));
  if (!chosen)
    throw new IncomingParseError('the PDF embeds no invoice XML (no factur-x.xml attachment): not a Factur-X file');
  const file = objects.get(chosen.ref);
  if (!file?.stream) throw new IncomingParseError(`the PDF's attachment ${chosen.name} has no content`);
  return decodeStream(file, { remaining: 20 * 1024 * 1024 });
}
