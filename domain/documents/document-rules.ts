import type { DocumentParty, DocumentVatBreakdown, InvoiceDocument } from './invoice-document.js';

/**
 * The EN 16931 rules that decide what a writer leaves out, shared by the CII and UBL writers so
 * both syntaxes always say the same thing about the same invoice.
 */

/** ISO 6523 ICD 0009: SIRET, the scheme of a French legal registration identifier (BT-30, BT-47). */
export const SIRET_SCHEME = '0009';

/** An identifier with its optional scheme (ISO 6523 ICD or EAS code). */
export interface SchemedId {
  value: string;
  scheme: string | null;
}

/**
 * BR-O-02 (and BR-O-11): an invoice not subject to VAT carries no seller or buyer VAT identifier.
 * Only when every breakdown row is O; a mixed invoice is refused upstream.
 */
export function isNotSubjectToVat(doc: InvoiceDocument): boolean {
  return doc.vatBreakdown.length > 0 && doc.vatBreakdown.every((row) => row.category === 'O');
}

/** BT-31: the seller's VAT identifier, unless BR-O-02 forbids it. */
export function sellerVatId(doc: InvoiceDocument): string | null {
  return isNotSubjectToVat(doc) ? null : doc.seller.vatNumber;
}

/** BT-48: never for an individual (spec: BT-46/47/48 left out), nor under BR-O-02. */
export function buyerVatId(doc: InvoiceDocument): string | null {
  return doc.buyerIsIndividual || isNotSubjectToVat(doc) ? null : doc.buyer.vatNumber;
}

/** BT-30 / BT-47: the SIRET under scheme 0009, else another legal identifier without a scheme. */
export function legalRegistration(party: DocumentParty): SchemedId | null {
  if (party.siret) return { value: party.siret, scheme: SIRET_SCHEME };
  if (party.legalId) return { value: party.legalId, scheme: null };
  return null;
}

/** BT-47 for the buyer: none for an individual. */
export function buyerLegalRegistration(doc: InvoiceDocument): SchemedId | null {
  return doc.buyerIsIndividual ? null : legalRegistration(doc.buyer);
}

/** BT-46: the buyer's SIRET as its identifier (ICD 0009); none for an individual. */
export function buyerIdentifier(doc: InvoiceDocument): SchemedId | null {
  return doc.buyerIsIndividual || !doc.buyer.siret ? null : { value: doc.buyer.siret, scheme: SIRET_SCHEME };
}

/** BT-120 / BT-121: BR-S-10 and BR-Z-10 forbid an exemption reason for S and Z, so none is written. */
export function exemptionOf(row: DocumentVatBreakdown): { reason: string | null; code: string | null } {
  if (row.category === 'S' || row.category === 'Z') return { reason: null, code: null };
  return { reason: row.exemptionReason, code: row.exemptionReasonCode };
}

/** BT-152 / BT-119: BR-O-05 and BR-48: category O has no rate. */
export function rateOf(category: string, rate: string | null): string | null {
  return category === 'O' ? null : rate;
}

/**
 * BT-22 with BT-21. UBL has no element for the subject code; the `#CODE#text` prefix is the
 * convention of the French and German CIUS (XRechnung, Factur-X's UBL mapping).
 */
export function ublNoteText(subjectCode: string | null, text: string): string {
  return subjectCode ? `#${subjectCode}#${text}` : text;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** CII dates are `udt:DateTimeString format="102"`, i.e. YYYYMMDD. */
export function ciiDate(isoDate: string): string {
  const match = ISO_DATE.exec(isoDate);
  if (!match) throw new Error(`not an ISO date (YYYY-MM-DD): ${isoDate}`);
  return `${match[1]}${match[2]}${match[3]}`;
}

/** UBL dates are xs:date, YYYY-MM-DD: checked, never reformatted. */
export function ublDate(isoDate: string): string {
  if (!ISO_DATE.test(isoDate)) throw new Error(`not an ISO date (YYYY-MM-DD): ${isoDate}`);
  return isoDate;
}
