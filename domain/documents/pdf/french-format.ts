import type { VatCategory } from '../invoice-document.js';

/**
 * French typography for the printed invoice. The model's values are decimal strings already rounded
 * (invoice-document.ts), so these only regroup digits: no number ever goes through a float.
 */

/** `-1234.5` → `-1 234,50`: at least `minDecimals` places, trailing zeros beyond them dropped. */
export function formatDecimal(value: string, minDecimals: number): string {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(value.trim());
  if (!match) return value;
  const [, sign, integer, fraction = ''] = match;
  const grouped = (integer.replace(/^0+(?=\d)/, '') || '0').replace(/\B(?=(\d{3})+$)/g, ' ');
  const decimals = fraction.replace(/0+$/, '').padEnd(minDecimals, '0');
  const negative = sign === '-' && /[1-9]/.test(integer + fraction);
  return `${negative ? '-' : ''}${grouped}${decimals ? `,${decimals}` : ''}`;
}

/** An amount with its currency: `1 234,50 €`, or the ISO code for other currencies (`1 234,50 USD`). */
export function formatAmount(value: string, currency: string): string {
  return `${formatDecimal(value, 2)} ${currency === 'EUR' ? '€' : currency}`;
}

/** `2026-01-15` → `15/01/2026`. */
export function formatDate(isoDate: string): string {
  const [year, month, day] = isoDate.split('-');
  return `${day}/${month}/${year}`;
}

/** A VAT rate: `20 %`, `5,5 %`; an em dash when there is none (category O). */
export function formatRate(rate: string | null): string {
  return rate === null ? '—' : `${formatDecimal(rate, 0)} %`;
}

const CATEGORY_LABELS: Record<VatCategory, string> = {
  S: 'Taux normal',
  Z: 'Taux zéro',
  E: 'Exonération',
  AE: 'Autoliquidation',
  K: 'Livraison intracommunautaire',
  G: 'Exportation hors UE',
  O: 'Hors champ de la TVA',
};

/** The French name of an EN 16931 VAT category (UNTDID 5305). */
export const vatCategoryLabel = (category: VatCategory): string => CATEGORY_LABELS[category];

const UNIT_LABELS: Record<string, string> = {
  C62: 'u',
  H87: 'pièce',
  HUR: 'h',
  DAY: 'jour',
  MON: 'mois',
  ANN: 'an',
  KGM: 'kg',
  MTR: 'm',
  MTK: 'm²',
  LTR: 'l',
  KWH: 'kWh',
  SET: 'lot',
};

/** A short French label for a UN/ECE Recommendation 20 unit code; the code itself when unknown. */
export const unitLabel = (unitCode: string): string => UNIT_LABELS[unitCode] ?? unitCode;

const regionNames = new Intl.DisplayNames(['fr'], { type: 'region' });

/** The French name of an ISO 3166-1 alpha-2 country (`FR` → `France`); the code when unknown. */
export function countryName(code: string): string {
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
