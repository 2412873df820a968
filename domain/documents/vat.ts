import { Decimal } from '../billing/index.js';
import type { VatCategory } from './invoice-document.js';

/** Categories whose rate is 0 and whose breakdown must say why (BR-E-10, BR-AE-10, BR-IC-10, BR-G-10, BR-O-10). */
export const NEEDS_EXEMPTION_REASON: ReadonlySet<VatCategory> = new Set(['E', 'AE', 'K', 'G', 'O']);

/** The legal text and VATEX code used when the caller gives no reason. */
export const DEFAULT_EXEMPTION: Record<VatCategory, { reason: string | null; code: string | null }> = {
  S: { reason: null, code: null },
  Z: { reason: null, code: null },
  E: { reason: 'Exonération de TVA', code: null },
  AE: { reason: 'Autoliquidation', code: 'VATEX-EU-AE' },
  K: { reason: 'Livraison intracommunautaire exonérée (article 262 ter I du CGI)', code: 'VATEX-EU-IC' },
  G: { reason: "Exportation hors de l'Union européenne exonérée (article 262 I du CGI)", code: 'VATEX-EU-G' },
  O: { reason: 'Non soumis à la TVA', code: 'VATEX-EU-O' },
};

/** 2-place rounding, half up, as EN 16931's schematron rounds positive amounts. */
export const round2 = (value: Decimal): Decimal => value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

export interface TaxedLine {
  vatCategory: VatCategory;
  taxRate: Decimal;
  totalHt: Decimal;
  totalTax: Decimal;
  exemptionReason: string | null;
  exemptionCode: string | null;
}

export interface VatGroup {
  category: VatCategory;
  rate: Decimal;
  taxableAmount: Decimal;
  /** Rounded once per group: taxable amount × rate (how EN 16931 computes BT-117). */
  groupTax: Decimal;
  /** The lines' own VAT added up (rounded per line). */
  linesTax: Decimal;
  exemptionReason: string | null;
  exemptionCode: string | null;
}

/** The VAT breakdown (BG-23): one group per (category, rate), in first-seen order. */
export function vatGroups(lines: readonly TaxedLine[]): VatGroup[] {
  const groups = new Map<string, VatGroup>();
  for (const line of lines) {
    const key = `${line.vatCategory}:${line.taxRate.toFixed(2)}`;
    const group = groups.get(key) ?? {
      category: line.vatCategory,
      rate: line.taxRate,
      taxableAmount: new Decimal(0),
      groupTax: new Decimal(0),
      linesTax: new Decimal(0),
      exemptionReason: line.exemptionReason,
      exemptionCode: line.exemptionCode,
    };
    group.taxableAmount = group.taxableAmount.plus(line.totalHt);
    group.linesTax = group.linesTax.plus(line.totalTax);
    groups.set(key, group);
  }
  for (const group of groups.values()) group.groupTax = round2(group.taxableAmount.times(group.rate).dividedBy(100));
  return [...groups.values()];
}

/**
 * Each group's VAT as the invoice states it. Both usual conventions are accepted: VAT rounded once
 * per rate (the group total), or rounded per line and added up; the invoice's `total_tax` says which.
 */
export function groupTaxes(groups: readonly VatGroup[], totalTax: Decimal): Decimal[] {
  const byGroup = groups.reduce((sum, g) => sum.plus(g.groupTax), new Decimal(0));
  return groups.map((g) => (byGroup.equals(totalTax) ? g.groupTax : g.linesTax));
}
