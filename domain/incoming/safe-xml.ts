/**
 * A small XML reader for incoming invoices, safe by construction: it has no DTD support at all.
 * A document that declares a DOCTYPE or an ENTITY is refused before any element is read, and the
 * only entity references it knows are the five predefined ones and character references (XML 1.0
 * §4.6), so neither external entities (XXE: `file:///etc/passwd`) nor entity expansion ("billion
 * laughs") can happen: there is nothing to resolve and nothing to expand. It reads in one linear
 * pass with limits on depth and element count.
 *
 * Why not xmlbuilder2's parser: it tokenizes DOCTYPE declarations and its behaviour with
 * internal entity declarations is not part of its documented contract; a reader that cannot
 * resolve entities is simpler to prove safe than a general parser configured to be.
 */

/** An element: its local name (namespace prefix dropped), attributes, children and text. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** A document the reader refuses; `message` says why, for a 422 or a stored `parse_error`. */
export class XmlRefused extends Error {
  override readonly name = 'XmlRefused';
}

const MAX_DEPTH = 200;
const MAX_ELEMENTS = 500_000;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

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

/** Refused up front, before any parsing: a DTD is the only way to declare entities. */
export function assertNoDtd(text: string): void {
  if (/<!DOCTYPE/i.test(text))
    throw new XmlRefused('XML documents with a DOCTYPE are refused (DTDs and entities are not supported)');
  if (/<!ENTITY/i.test(text)) throw new XmlRefused('XML documents declaring entities are refused');
}

function decodeEntities(raw: string, at: number): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;&<\s]{0,12});?/g, (whole, name: string) => {
    if (!whole.endsWith(';')) throw new XmlRefused(`bare & in text near offset ${at}`);
    if (name in PREDEFINED) return PREDEFINED[name];
    const code = /^#x([0-9a-f]{1,6})$/i.exec(name)?.[1];
    const decimal = /^#([0-9]{1,7})$/.exec(name)?.[1];
    const point = code ? Number.parseInt(code, 16) : decimal ? Number(decimal) : Number.NaN;
    if (Number.isNaN(point) || point > 0x10ffff)
      throw new XmlRefused(`undeclared entity &${name}; (only the predefined ones are allowed)`);
    if (!isXmlChar(point)) throw new XmlRefused(`&${name}; is not an XML character (XML 1.0 §2.2) near offset ${at}`);
    return String.fromCodePoint(point);
  });
}

/** XML 1.0 §2.2 `Char`: a reference to anything else (`&#0;`, a lone surrogate) is not well-formed. */
const isXmlChar = (point: number) =>
  point === 0x9 ||
  point === 0xa ||
  point === 0xd ||
  (point >= 0x20 && point <= 0xd7ff) ||
  (point >= 0xe000 && point <= 0xfffd) ||
  (point >= 0x10000 && point <= 0x10ffff);

const localName = (qualified: string) => qualified.slice(qualified.indexOf(':') + 1);
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * The attributes of a start tag's text after its name, in one forward pass (a regular expression
 * retried at each position is quadratic on a long run of characters with no `=`). The tag's quotes
 * are balanced: findTagEnd skipped them.
 */
function readAttributes(inner: string, at: number): Record<string, string> {
  const attributes: Record<string, string> = Object.create(null);
  let i = 0;
  while (i < inner.length) {
    if (isSpace(inner[i])) {
      i++;
      continue;
    }
    const nameStart = i;
    while (i < inner.length && !isSpace(inner[i]) && inner[i] !== '=') i++;
    const name = inner.slice(nameStart, i);
    while (i < inner.length && isSpace(inner[i])) i++;
    if (inner[i] !== '=') throw new XmlRefused(`attribute ${name.slice(0, 40)} without a value near offset ${at}`);
    i++;
    while (i < inner.length && isSpace(inner[i])) i++;
    const quote = inner[i];
    if (quote !== '"' && quote !== "'") throw new XmlRefused(`unquoted attribute value near offset ${at}`);
    const close = inner.indexOf(quote, i + 1);
    if (close === -1) throw new XmlRefused(`unterminated attribute value near offset ${at}`);
    attributes[localName(name)] = decodeEntities(inner.slice(i + 1, close), at);
    i = close + 1;
  }
  return attributes;
}

/** Parses a whole document into its root element. Throws XmlRefused on anything unexpected. */
export function readXml(bytes: Buffer): XmlElement {
  const text = decodeXml(bytes);
  assertNoDtd(text);
  const stack: XmlElement[] = [];
  let root: XmlElement | null = null;
  let count = 0;
  let i = 0;
  const fail = (what: string): never => {
    throw new XmlRefused(`${what} at offset ${i}`);
  };
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const chunk = lt === -1 ? text.slice(i) : text.slice(i, lt);
    if (stack.length > 0) stack[stack.length - 1].text += decodeEntities(chunk, i);
    else if (chunk.trim() !== '') fail('text outside the root element');
    if (lt === -1) break;
    i = lt;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i);
      if (end === -1) fail('unterminated processing instruction');
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end === -1) fail('unterminated comment');
      i = end + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const end = text.indexOf(']]>', i);
      if (end === -1 || stack.length === 0) fail('misplaced CDATA section');
      stack[stack.length - 1].text += text.slice(i + 9, end);
      i = end + 3;
    } else if (text.startsWith('<!', i)) {
      fail('markup declarations are not allowed');
    } else if (text.startsWith('</', i)) {
      const end = text.indexOf('>', i);
      if (end === -1) fail('unterminated end tag');
      const name = localName(text.slice(i + 2, end).trim());
      const open = stack.pop();
      if (!open || open.name !== name) fail(`end tag </${name}> does not match`);
      i = end + 1;
    } else {
      const end = findTagEnd(text, i);
      if (end === -1) fail('unterminated start tag');
      const body = text.slice(i + 1, end);
      const selfClosing = body.endsWith('/');
      const inner = selfClosing ? body.slice(0, -1) : body;
      const nameMatch = /^[^\s/>]+/.exec(inner);
      if (!nameMatch) fail('element without a name');
      const element: XmlElement = {
        name: localName(nameMatch![0]),
        attributes: readAttributes(inner.slice(nameMatch![0].length), i),
        children: [],
        text: '',
      };
      if (++count > MAX_ELEMENTS) fail('too many elements');
      if (stack.length > 0) stack[stack.length - 1].children.push(element);
      else if (root) fail('a second root element');
      else root = element;
      if (!selfClosing) {
        stack.push(element);
        if (stack.length > MAX_DEPTH) fail('elements nested too deeply');
      }
      i = end + 1;
    }
  }
  if (!root) throw new XmlRefused('no root element');
  if (stack.length > 0) throw new XmlRefused(`element <${stack[stack.length - 1].name}> is not closed`);
  return root;
}

/** The `>` closing a start tag, skipping quoted attribute values. */
function findTagEnd(text: string, from: number): number {
  let quote: string | null = null;
  for (let j = from + 1; j < text.length; j++) {
    const c = text[j];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return j;
    else if (c === '<') return -1;
  }
  return -1;
}

/** The first child with this local name, following a path of names. */
export function child(element: XmlElement | null | undefined, ...path: string[]): XmlElement | null {
  let current: XmlElement | null = element ?? null;
  for (const name of path) {
    current = current?.children.find((c) => c.name === name) ?? null;
    if (!current) return null;
  }
  return current;
}

/** Every child with this local name. */
export const children = (element: XmlElement | null, name: string): XmlElement[] =>
  element ? element.children.filter((c) => c.name === name) : [];

/** The trimmed text at a path, or null when absent or empty. */
export function textAt(element: XmlElement | null | undefined, ...path: string[]): string | null {
  const found = child(element, ...path);
  const value = found?.text.trim();
  return value ? value : null;
}
