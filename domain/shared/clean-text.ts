/** Unpaired UTF-16 surrogates (what String.prototype.toWellFormed replaces), in one pass. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (text: string) => text.replace(LONE_SURROGATE, '\uFFFD');

/**
 * Text from outside (a supplier's file, a provider's event) fit for PostgreSQL: no NUL (text
 * refuses it), no unpaired surrogate (jsonb refuses it), trimmed, at most `max` characters (cut on
 * a code point); null when nothing is left.
 */
export function cleanText(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  const clean = wellFormed(String(value)).replaceAll('\u0000', '').trim();
  if (clean === '') return null;
  return clean.length <= max ? clean : wellFormed(clean.slice(0, max)).replace(/\uFFFD$/, '');
}
