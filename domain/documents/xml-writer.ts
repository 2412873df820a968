/**
 * A small append-only XML writer for the CII and UBL documents. xmlbuilder2 (the design card's
 * package) builds a DOM and serialises it: on the shared 2-core box, serialising the bench's
 * 10-line invoice from a ready object took 1,000–1,400 docs/s for UBL and CII alike, before any
 * mapping from the model, i.e. too little margin over the 800 UBL/s target; its streaming
 * `createCB` was slower still (about 100/s). The documents have a fixed shape, so they are written
 * as strings here, every value through `escapeText`/`escapeAttribute`: 11,000–29,000 docs/s
 * (bench/xml-documents.ts). The conformance test runs every shape through the XSDs.
 */

// Characters XML 1.0 cannot carry at all (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF).
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
// `\r` is written as a reference: a parser would otherwise turn it into `\n` (XML 1.0 §2.11).
const TEXT_SPECIAL = /[&<>\r]/;
const TEXT_SPECIAL_ALL = /[&<>\r]/g;
// In an attribute, whitespace other than a space is also normalised away (XML 1.0 §3.3.3).
const ATTRIBUTE_SPECIAL = /[&<>"\r\n\t]/;
const ATTRIBUTE_SPECIAL_ALL = /[&<>"\r\n\t]/g;
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  '\r': '&#13;',
  '\n': '&#10;',
  '\t': '&#9;',
};
const entity = (char: string): string => ENTITIES[char]!;

/** Drops the characters XML 1.0 forbids; lone surrogates become U+FFFD when encoded to UTF-8. */
function clean(value: string): string {
  FORBIDDEN.lastIndex = 0;
  return FORBIDDEN.test(value) ? value.replace(FORBIDDEN, '') : value;
}

/** Element content: `&`, `<`, `>` and CR escaped, forbidden characters dropped. */
export function escapeText(value: string): string {
  const text = clean(value);
  return TEXT_SPECIAL.test(text) ? text.replace(TEXT_SPECIAL_ALL, entity) : text;
}

/** A double-quoted attribute value: also `"`, tab and LF escaped. */
export function escapeAttribute(value: string): string {
  const text = clean(value);
  return ATTRIBUTE_SPECIAL.test(text) ? text.replace(ATTRIBUTE_SPECIAL_ALL, entity) : text;
}

/**
 * Appends elements to one string. Tag names are the writers' own constants (never escaped);
 * values always are. `open`/`close` must pair: the writers' structure is fixed code, and the
 * conformance test validates every document against the XSDs.
 */
export class XmlWriter {
  private out: string;

  constructor(prologue: string) {
    this.out = prologue;
  }

  /** Markup written as is: a constant fragment built at module load. */
  raw(xml: string): this {
    this.out += xml;
    return this;
  }

  open(tag: string): this {
    this.out += `<${tag}>`;
    return this;
  }

  close(tag: string): this {
    this.out += `</${tag}>`;
    return this;
  }

  /** `<tag>value</tag>`. */
  text(tag: string, value: string): this {
    this.out += `<${tag}>${escapeText(value)}</${tag}>`;
    return this;
  }

  /** `<tag>value</tag>` when there is a value, nothing otherwise. */
  optionalText(tag: string, value: string | null | undefined): this {
    if (value !== null && value !== undefined && value !== '') this.text(tag, value);
    return this;
  }

  /** `<tag name="attribute">value</tag>`. */
  textWith(tag: string, name: string, attribute: string, value: string): this {
    this.out += `<${tag} ${name}="${escapeAttribute(attribute)}">${escapeText(value)}</${tag}>`;
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.from(this.out, 'utf8');
  }
}
