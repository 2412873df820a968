import type { InvoiceInput } from '../../schemas/invoices.js';
import { Decimal, toMoney } from '../billing/index.js';
import { frenchVatKey, isCountryCode, isEuMember } from '../companies/index.js';
import {
  type CiiProfile,
  DEFAULT_EXEMPTION,
  groupTaxes,
  NEEDS_EXEMPTION_REASON,
  type OutputFormat,
  round2,
  type VatCategory,
  type VatGroup,
  vatGroups,
} from '../documents/index.js';
import { AppError } from '../shared/app-error.js';
import { isCurrencyCode } from '../shared/currencies.js';
import { isValidSiret } from '../tenants/index.js';

export interface Address {
  line1: string;
  line2: string | null;
  postal_code: string;
  city: string;
  country: string;
}

export interface PreparedLine {
  lineNumber: number;
  description: string;
  quantity: Decimal;
  unitPrice: Decimal;
  taxRate: Decimal;
  vatCategory: VatCategory;
  exemptionReason: string | null;
  exemptionCode: string | null;
  unitCode: string;
  totalHt: Decimal;
  totalTax: Decimal;
  totalTtc: Decimal;
}

/** An invoice body that passed every rule, with defaults applied and totals known: what is stored. */
export interface PreparedInvoice {
  externalId: string | null;
  /** Null when left out: the sub-tenant's sequence gives it as the invoice is written (invoice-numbering.ts). */
  invoiceNumber: string | null;
  direction: 'outgoing' | 'incoming';
  outputFormat: OutputFormat;
  profile: CiiProfile;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  sellerSiret: string;
  sellerName: string;
  sellerVatNumber: string | null;
  sellerCountry: string;
  sellerAddress: Address;
  buyerSiret: string | null;
  buyerName: string;
  buyerCountry: string;
  buyerVatNumber: string | null;
  buyerLegalId: string | null;
  buyerAddress: Address;
  buyerIsIndividual: boolean;
  archiveEnabled: boolean;
  metadata: Record<string, unknown>;
  lines: PreparedLine[];
  totalHt: Decimal;
  totalTax: Decimal;
  totalTtc: Decimal;
  /** BT-3: 380, or 386 for a deposit (prepayment) invoice; only a quote's conversion sets 386. */
  typeCode: InvoiceTypeCode;
  /** BG-3: the deposit invoices a balance invoice deducts (a quote's conversion); empty otherwise. */
  precedingInvoices: PrecedingInvoice[];
}

export type InvoiceTypeCode = '380' | '386';
export interface PrecedingInvoice {
  id: string;
  number: string;
  issue_date: string;
}

/** A prepared invoice whose number is known (given, or taken from its sub-tenant's sequence). */
export type NumberedInvoice = PreparedInvoice & { invoiceNumber: string };

type Errors = Record<string, string[]>;
const add = (errors: Errors, path: string, message: string) => {
  errors[path] = [...(errors[path] ?? []), message];
};

/** A JSON number's exact decimal value, or undefined when it has more places than allowed. */
function decimalOf(errors: Errors, path: string, value: number | undefined, places: number): Decimal | undefined {
  if (value === undefined) return undefined;
  const d = toMoney(value);
  if (d.decimalPlaces() > places) {
    add(errors, path, `must have at most ${places} decimal places`);
    return undefined;
  }
  return d;
}

const money = (d: Decimal) => d.toFixed(2);
/** Largest line and invoice amounts: well inside `numeric(18, 2)`, so a total can never overflow. */
const LINE_LIMIT = new Decimal('1e12');
const INVOICE_LIMIT = new Decimal('1e14');
/**
 * The 1-cent tolerance of DECISIONS.md "Money and totals" for per-line rounding: a line's
 * `total_ht`, and its `total_tax` when the lines of its rate add up to the rate's VAT (ERPs that
 * spread the per-rate rounding over the lines: checkSpreadVat).
 */
const CENT = new Decimal('0.01');
// equal amounts (the usual case) need no subtraction
const near = (a: Decimal, b: Decimal) => a.equals(b) || a.minus(b).abs().lessThanOrEqualTo(CENT);

function addressOf(
  input: { line1: string; line2?: string; postal_code: string; city: string; country?: string },
  country: string,
): Address {
  return {
    line1: input.line1.trim(),
    line2: input.line2?.trim() || null,
    postal_code: input.postal_code.trim(),
    city: input.city.trim(),
    country: input.country ?? country,
  };
}

/** A French seller's VAT number follows from its SIREN (the SIRET's first nine digits). */
export const frenchVatNumber = (siret: string): string => `FR${frenchVatKey(siret.slice(0, 9))}${siret.slice(0, 9)}`;

/**
 * Every rule of the specification a schema cannot say, then the totals arithmetic the way EN 16931
 * checks it. All problems are reported at once, keyed by field path; arithmetic messages name the
 * EN 16931 rule. Totals left out (tenant bodies) are computed instead of checked.
 */
export function prepareInvoice(input: InvoiceInput): PreparedInvoice {
  const errors: Errors = {};
  const sellerCountry = input.seller_country ?? input.seller_address.country ?? 'FR';
  const buyerCountry = input.buyer_country ?? input.buyer_address.country ?? 'FR';
  const individual = input.buyer_is_individual ?? false;

  for (const [path, code] of [
    ['seller_country', sellerCountry],
    ['buyer_country', buyerCountry],
    ['seller_address.country', input.seller_address.country],
    ['buyer_address.country', input.buyer_address.country],
  ] as const) {
    if (code !== undefined && !isCountryCode(code))
      add(errors, path, 'must be an ISO 3166-1 alpha-2 country code, such as FR');
  }
  const currency = input.currency ?? 'EUR';
  if (!isCurrencyCode(currency)) add(errors, 'currency', 'must be an ISO 4217 currency code, such as EUR');
  if (input.due_date !== undefined && input.due_date < input.issue_date) {
    add(errors, 'due_date', 'must be on or after issue_date');
  }
  if (!isValidSiret(input.seller_siret)) add(errors, 'seller_siret', 'is not a valid SIRET (14 digits, Luhn check)');
  if (input.buyer_siret !== undefined && !isValidSiret(input.buyer_siret)) {
    add(errors, 'buyer_siret', 'is not a valid SIRET (14 digits, Luhn check)');
  }
  if (input.buyer_siret === undefined && buyerCountry === 'FR' && !individual) {
    add(errors, 'buyer_siret', 'is required for a French business buyer (set buyer_is_individual for a consumer)');
  }

  let sellerVat = input.seller_vat_number ?? null;
  if (sellerVat === null && sellerCountry === 'FR' && isValidSiret(input.seller_siret)) {
    sellerVat = frenchVatNumber(input.seller_siret);
  } else if (
    sellerVat?.startsWith('FR') &&
    isValidSiret(input.seller_siret) &&
    sellerVat !== frenchVatNumber(input.seller_siret)
  ) {
    add(
      errors,
      'seller_vat_number',
      `does not match seller_siret: its VAT number is ${frenchVatNumber(input.seller_siret)}`,
    );
  }
  const buyerVat = individual ? (input.buyer_vat_number ?? null) : (input.buyer_vat_number ?? null);

  const lines = input.lines.map((line, index): PreparedLine | undefined => {
    const at = (field: string) => `lines.${index}.${field}`;
    const quantity = decimalOf(errors, at('quantity'), line.quantity, 4);
    const unitPrice = decimalOf(errors, at('unit_price'), line.unit_price, 4);
    const taxRate = decimalOf(errors, at('tax_rate'), line.tax_rate, 2);
    const givenHt = decimalOf(errors, at('total_ht'), line.total_ht, 2);
    const givenTax = decimalOf(errors, at('total_tax'), line.total_tax, 2);
    const givenTtc = decimalOf(errors, at('total_ttc'), line.total_ttc, 2);
    if (!quantity || !unitPrice || !taxRate) return undefined;

    const category: VatCategory = line.vat_category ?? (taxRate.isZero() ? 'E' : 'S');
    if (category === 'S' && taxRate.isZero()) {
      add(errors, at('tax_rate'), 'must be above 0 for VAT category S (BR-S-05); use Z, E, AE, K, G or O for 0 %');
    } else if (category !== 'S' && !taxRate.isZero()) {
      add(
        errors,
        at('tax_rate'),
        `must be 0 for VAT category ${category} (BR-${category === 'K' ? 'IC' : category}-05)`,
      );
    }
    const defaults = DEFAULT_EXEMPTION[category];
    const reason = NEEDS_EXEMPTION_REASON.has(category) ? (line.vat_exemption_reason?.trim() ?? defaults.reason) : null;
    const code = NEEDS_EXEMPTION_REASON.has(category) && !line.vat_exemption_reason ? defaults.code : null;
    if (line.vat_exemption_reason !== undefined && !NEEDS_EXEMPTION_REASON.has(category)) {
      add(errors, at('vat_exemption_reason'), `is only for VAT categories E, AE, K, G and O, not ${category}`);
    }

    const expectedHt = round2(quantity.times(unitPrice));
    if (expectedHt.greaterThan(LINE_LIMIT)) {
      add(errors, at('quantity'), `quantity × unit_price must be at most ${LINE_LIMIT.toFixed(0)} per line`);
      return undefined;
    }
    const totalHt = givenHt ?? expectedHt;
    if (givenHt && !near(givenHt, expectedHt)) {
      add(
        errors,
        at('total_ht'),
        `must be quantity × unit_price = ${money(expectedHt)} (EN 16931 BT-131, to the cent)`,
      );
    }
    const expectedTax = round2(totalHt.times(taxRate).dividedBy(100));
    const totalTax = givenTax ?? expectedTax;
    if (givenTax && !near(givenTax, expectedTax)) {
      add(
        errors,
        at('total_tax'),
        `must be total_ht × tax_rate / 100 = ${money(expectedTax)} (to the cent; 0.01 apart only when the lines of its rate add up to the rate's VAT)`,
      );
    }
    const totalTtc = givenTtc ?? totalHt.plus(totalTax);
    if (givenTtc && !givenTtc.equals(totalHt.plus(totalTax))) {
      add(errors, at('total_ttc'), `must be total_ht + total_tax = ${money(totalHt.plus(totalTax))}`);
    }
    return {
      lineNumber: index + 1,
      description: line.description.trim(),
      quantity,
      unitPrice,
      taxRate,
      vatCategory: category,
      exemptionReason: reason,
      exemptionCode: code,
      unitCode: line.unit_code ?? 'C62',
      totalHt,
      totalTax,
      totalTtc,
    };
  });

  const valid = lines.filter((l): l is PreparedLine => l !== undefined);
  const categories = new Set(valid.map((l) => l.vatCategory));
  checkCategoryRules(errors, valid, categories, {
    sellerVat,
    buyerVat,
    individual,
    buyerSiret: input.buyer_siret,
    buyerCountry,
    sellerCountry,
  });

  const givenHt = decimalOf(errors, 'total_ht', input.total_ht, 2);
  const givenTax = decimalOf(errors, 'total_tax', input.total_tax, 2);
  const givenTtc = decimalOf(errors, 'total_ttc', input.total_ttc, 2);
  if (Object.keys(errors).length) throw AppError.validation(errors);

  const sumHt = valid.reduce((s, l) => s.plus(l.totalHt), new Decimal(0));
  if (sumHt.greaterThan(INVOICE_LIMIT)) {
    throw AppError.validation({ lines: [`the invoice total must be at most ${INVOICE_LIMIT.toFixed(0)}`] });
  }
  const groups = vatGroups(valid);
  const byGroup = groups.reduce((s, g) => s.plus(g.groupTax), new Decimal(0));
  const byLine = groups.reduce((s, g) => s.plus(g.linesTax), new Decimal(0));
  const totalHt = givenHt ?? sumHt;
  if (givenHt && !givenHt.equals(sumHt)) {
    add(errors, 'total_ht', `must be the sum of the lines' total_ht = ${money(sumHt)} (EN 16931 BR-CO-10, BR-CO-13)`);
  }
  checkSpreadVat(errors, valid, groups);
  const totalTax = givenTax ?? byGroup;
  if (givenTax && !givenTax.equals(byGroup) && !givenTax.equals(byLine)) {
    add(
      errors,
      'total_tax',
      `must be the sum of the VAT breakdown = ${money(byGroup)} (VAT per rate) or ${money(byLine)} (VAT per line) (EN 16931 BR-CO-14)`,
    );
  }
  const totalTtc = givenTtc ?? totalHt.plus(totalTax);
  if (givenTtc && !givenTtc.equals(totalHt.plus(totalTax))) {
    add(errors, 'total_ttc', `must be total_ht + total_tax = ${money(totalHt.plus(totalTax))} (EN 16931 BR-CO-15)`);
  }
  if (!errors.total_tax) {
    const taxes = groupTaxes(groups, totalTax);
    groups.forEach((group, i) => {
      if (taxes[i].minus(group.groupTax).abs().greaterThanOrEqualTo(1)) {
        add(
          errors,
          'total_tax',
          `VAT at ${group.rate.toFixed(2)} % is more than 1 unit away from taxable amount × rate (EN 16931 BR-S-09)`,
        );
      }
    });
  }
  if (Object.keys(errors).length) throw AppError.validation(errors);

  return {
    externalId: input.external_id ?? null,
    invoiceNumber: input.invoice_number?.trim() ?? null,
    direction: input.direction ?? 'outgoing',
    outputFormat: input.output_format ?? 'facturx',
    profile: input.profile ?? 'en16931',
    issueDate: input.issue_date,
    dueDate: input.due_date ?? null,
    currency,
    sellerSiret: input.seller_siret,
    sellerName: input.seller_name.trim(),
    sellerVatNumber: sellerVat,
    sellerCountry,
    sellerAddress: addressOf(input.seller_address, sellerCountry),
    buyerSiret: input.buyer_siret ?? null,
    buyerName: input.buyer_name.trim(),
    buyerCountry,
    buyerVatNumber: buyerVat,
    buyerLegalId: input.buyer_legal_id ?? null,
    buyerAddress: addressOf(input.buyer_address, buyerCountry),
    buyerIsIndividual: individual,
    archiveEnabled: input.archive_enabled ?? false,
    metadata: (input.metadata ?? {}) as Record<string, unknown>,
    lines: valid,
    totalHt,
    totalTax,
    totalTtc,
    typeCode: '380',
    precedingInvoices: [],
  };
}

/**
 * A line's `total_tax` may be 0.01 away from its own rounding only when the VAT of the lines of its
 * rate adds up to the rate's VAT, rounded once (BT-117): the ERP spread that rounding over the
 * lines. The document then states the per-rate VAT of EN 16931, which those lines add up to.
 */
function checkSpreadVat(errors: Errors, lines: readonly PreparedLine[], groups: readonly VatGroup[]): void {
  for (const group of groups) {
    if (group.linesTax.equals(group.groupTax)) continue;
    const rate = group.rate.toFixed(2);
    for (const line of lines) {
      if (line.vatCategory !== group.category || line.taxRate.toFixed(2) !== rate) continue;
      const own = round2(line.totalHt.times(line.taxRate).dividedBy(100));
      if (line.totalTax.equals(own)) continue;
      add(
        errors,
        `lines.${line.lineNumber - 1}.total_tax`,
        `must be total_ht × tax_rate / 100 = ${money(own)}: it may be 0.01 apart only when the lines at ${group.rate.toFixed()} % add up to that rate's VAT, ${money(group.groupTax)} (they add up to ${money(group.linesTax)})`,
      );
    }
  }
}

interface Parties {
  sellerVat: string | null;
  buyerVat: string | null;
  individual: boolean;
  buyerSiret: string | undefined;
  buyerCountry: string;
  sellerCountry: string;
}

/** What each VAT category needs so that the generated document is valid (EN 16931 BR-S/Z/E/AE/IC/G/O). */
function checkCategoryRules(errors: Errors, lines: PreparedLine[], categories: Set<VatCategory>, p: Parties): void {
  if (categories.has('O') && categories.size > 1) {
    add(
      errors,
      'lines',
      'VAT category O (not subject to VAT) cannot be mixed with other categories on one invoice (EN 16931 BR-O-11)',
    );
  }
  const needsSellerVat = [...categories].filter((c) => c !== 'O');
  if (needsSellerVat.length && p.sellerVat === null && !errors.seller_siret) {
    add(
      errors,
      'seller_vat_number',
      `is required for VAT category ${needsSellerVat[0]} (EN 16931 BR-${needsSellerVat[0] === 'K' ? 'IC' : needsSellerVat[0]}-02)`,
    );
  }
  if (categories.has('AE') && p.buyerVat === null && p.buyerSiret === undefined) {
    add(
      errors,
      'buyer_vat_number',
      'is required for reverse charge, VAT category AE (EN 16931 BR-AE-02), unless buyer_siret is given',
    );
  }
  if (categories.has('K')) {
    if (p.buyerVat === null)
      add(errors, 'buyer_vat_number', 'is required for an intra-community supply, VAT category K (EN 16931 BR-IC-02)');
    if (!isEuMember(p.buyerCountry) || p.buyerCountry === p.sellerCountry) {
      add(errors, 'buyer_country', 'must be another EU member state for an intra-community supply, VAT category K');
    }
  }
  if (p.individual && (categories.has('AE') || categories.has('K'))) {
    add(errors, 'buyer_is_individual', 'VAT categories AE and K are for business buyers only');
  }
  // One breakdown per category for the 0 % categories (BR-E-01, BR-AE-01, ...): one exemption reason each.
  const reasons = new Map<VatCategory, string | null>();
  lines.forEach((line, index) => {
    if (!NEEDS_EXEMPTION_REASON.has(line.vatCategory)) return;
    const first = reasons.get(line.vatCategory);
    if (first === undefined) reasons.set(line.vatCategory, line.exemptionReason);
    else if (first !== line.exemptionReason) {
      add(
        errors,
        `lines.${index}.vat_exemption_reason`,
        `must be the same on every line of VAT category ${line.vatCategory} (one VAT breakdown per category)`,
      );
    }
  });
}
