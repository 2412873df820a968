/** E.164: `+`, a country code that does not start with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * A phone number in E.164 form, or null when it is not a plausible international number.
 * libphonenumber-js is not installed, so this checks the shape only: separators (spaces, dots,
 * dashes, parentheses) are dropped and a leading `00` becomes `+`; numbering plans are not checked.
 */
export function normalizePhone(raw: string): string | null {
  let compact = raw.trim().replace(/[\s.\-()/]/g, '');
  if (compact.startsWith('00')) compact = `+${compact.slice(2)}`;
  return E164.test(compact) ? compact : null;
}

export const PHONE_PROBLEM = 'must be an international number such as +33612345678 (E.164)';
