import { SaxesParser, type SaxesTagNS } from 'saxes';

/**
 * The XML reader for incoming invoices: saxes (a streaming, namespace-aware parser in plain
 * JavaScript, linear in its input), behind a refusal of any DTD and under budgets of bytes, depth
 * and elements.
 *
 * No DTD: a document that declares a DOCTYPE or an ENTITY is refused before it is parsed (a scan
 * of the text), and again if saxes reports a doctype. saxes itself never resolves anything: it
 * knows the five predefined entities and character references (XML 1.0 §4.6) and reports any
 * other reference as an error, so neither external entities (XXE: `file:///etc/passwd`) nor
 * entity expansion ("billion laughs") can happen. It is forced to XML 1.0, whose characters
 * (§2.2) the rest of the service expects.
 *
 * Elements keep their namespace URI and local name; readers match on both (invoice-namespaces.ts),
 * never on the prefix a sender chose.
 */

/** An element: namespace URI ('' for none), local name, unprefixed attributes, children, text. */
export interface XmlElement {
  ns: string;
  local: string;
  /** Attributes in no namespace, by name (`schemeID`, `unitCode`, `currencyID`). */
  attributes: Record<string, string>;
  children: XmlElement[];
  /** The element's own character data (CDATA included), not its descendants'. */
  text: string;
}

/** A document the reader refuses; `message` says why, for a 422 or a stored `parse_error`. */
export class XmlRefused extends Error {
  override readonly name = 'XmlRefused';
}

/** The largest XML read: a 10 MB file, or the XML a Factur-X PDF may inflate to (pdf-attachments.ts). */
export const MAX_XML_BYTES = 20 * 1024 * 1024;
export const MAX_DEPTH = 200;
export const MAX_ELEMENTS = 500_000;

/** Decodes the bytes (UTF-8 by default, UTF-16 by BOM, Latin-1 when declared) without a BOM. */
export function decodeXml(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    if (bytes.length % 2 === 1) throw new XmlRefused('the UTF-16 document has an odd number of bytes');
    return bytes.subarray(2).toString('utf16le');
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    if (bytes.length % 2 === 1) throw new XmlRefused('the UTF-16 document has an odd number of bytes');
    return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  }
  const head = bytes.subarray(0, 200).toString('latin1');
  const declared = /^\s*<\?xml[^>]*encoding\s*=\s*["']([^"']+)["']/.exec(head)?.[1]?.toLowerCase();
  const text =
    declared && /^(iso-8859-1|latin1|windows-1252)$/.test(declared) ? bytes.toString('latin1') : bytes.toString('utf8');
  return text.replace(/^\uFEFF/, '');
}

const DOCTYPE_REFUSED = 'XML documents with a DOCTYPE are refused (DTDs and entities are not supported)';

/** Refused up front, before any parsing: a DTD is the only way to declare entities. */
export function assertNoDtd(text: string): void {
  if (/<!DOCTYPE/i.test(text)) throw new XmlRefused(DOCTYPE_REFUSED);
  if (/<!ENTITY/i.test(text)) throw new XmlRefused('XML documents declaring entities are refused');
}

/** saxes' well-formedness errors, said the way a supplier can act on; `open` is the element last closed. */
function explain(message: string, open: string): string {
  if (message === 'undefined entity.') return 'undeclared entity (only the predefined ones are allowed)';
  if (message === 'malformed character entity.')
    return 'a character reference that is not an XML character (XML 1.0 §2.2)';
  if (message === 'disallowed character.') return 'a character that is not an XML character (XML 1.0 §2.2)';
  if (message === 'unexpected close tag.' || message.startsWith('unmatched closing tag'))
    return `an end tag does not match the open element <${open.slice(0, 120)}>`;
  return `malformed XML: ${message.replace(/\.$/, '')}`;
}

/**
 * Most elements have no attributes: they share this empty record. A record is a plain object
 * (a null-prototype one costs twice the time on a document of many attributes): readers only ask
 * for fixed names (`schemeID`, `unitCode`, `currencyID`), and an attribute named `__proto__` sets
 * nothing, its value being a string.
 */
const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Parses a whole document into its root element. Throws XmlRefused on anything unexpected. */
export function readXml(bytes: Buffer): XmlElement {
  if (bytes.length > MAX_XML_BYTES) throw new XmlRefused(`the XML is larger than ${MAX_XML_BYTES} bytes`);
  const text = decodeXml(bytes);
  assertNoDtd(text);
  const parser = new SaxesParser({ xmlns: true, defaultXMLVersion: '1.0', forceXMLVersion: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let count = 0;
  // saxes closes a mismatched element before it reports the mismatch: the error names it.
  let lastClosed = '';
  const fail = (what: string): never => {
    throw new XmlRefused(`${what} at line ${parser.line}, column ${parser.column}`);
  };
  parser.on('error', (err) => fail(explain(err.message.replace(/^\d+:\d+: /, ''), lastClosed)));
  parser.on('doctype', () => {
    throw new XmlRefused(DOCTYPE_REFUSED);
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (++count > MAX_ELEMENTS) fail('too many elements');
    if (stack.length >= MAX_DEPTH) fail('elements nested too deeply');
    let attributes = NO_ATTRIBUTES;
    for (const qualified in tag.attributes) {
      const attribute = tag.attributes[qualified];
      if (attribute.uri !== '') continue;
      if (attributes === NO_ATTRIBUTES) attributes = {};
      attributes[attribute.local] = attribute.value;
    }
    const element: XmlElement = { ns: tag.uri, local: tag.local, attributes, children: [], text: '' };
    if (stack.length > 0) stack[stack.length - 1].children.push(element);
    else root = element;
    stack.push(element);
  });
  parser.on('closetag', (tag: SaxesTagNS) => {
    lastClosed = tag.name;
    stack.pop();
  });
  const append = (data: string) => {
    if (stack.length > 0) stack[stack.length - 1].text += data;
  };
  parser.on('text', append);
  parser.on('cdata', append);
  parser.write(text).close();
  if (!root) throw new XmlRefused('no root element');
  return root;
}
