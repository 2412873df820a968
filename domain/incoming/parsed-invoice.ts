/** What an incoming invoice says, read from its UBL, CII or Factur-X file (EN 16931 business terms). */

export type IncomingFormat = 'ubl' | 'cii' | 'facturx';

export interface ParsedParty {
  name: string | null; // BT-27 / BT-44
  /** SIRET (14 digits) from the legal registration identifier (BT-30 / BT-47), else null. */
  siret: string | null;
  vatNumber: string | null; // BT-31 / BT-48
  country: string | null; // BT-40 / BT-55
}

export interface ParsedLine {
  lineNumber: string; // BT-126
  description: string | null; // BT-153
  quantity: string | null; // BT-129
  unitCode: string | null; // BT-130
  unitPrice: string | null; // BT-146
  netAmount: string | null; // BT-131
  vatCategory: string | null; // BT-151
  vatRate: string | null; // BT-152
}

export interface ParsedInvoice {
  format: IncomingFormat;
  typeCode: string | null; // BT-3
  number: string | null; // BT-1
  issueDate: string | null; // BT-2, YYYY-MM-DD
  dueDate: string | null; // BT-9
  currency: string | null; // BT-5
  seller: ParsedParty;
  buyer: ParsedParty;
  totals: {
    lineTotal: string | null; // BT-106
    taxBasisTotal: string | null; // BT-109
    taxTotal: string | null; // BT-110
    grandTotal: string | null; // BT-112
    duePayable: string | null; // BT-115
  };
  lines: ParsedLine[];
}

/** A file the service cannot read as an invoice; the message is kept as `parse_error`. */
export class IncomingParseError extends Error {
  override readonly name = 'IncomingParseError';
}

/** ISO 6523 ICD 0009: SIRET. */
export const SIRET_SCHEME = '0009';

/** A legal identifier as a SIRET when it is one (scheme 0009, or 14 digits with no scheme). */
export function siretOf(value: string | null, scheme: string | null | undefined): string | null {
  if (!value) return null;
  const digits = value.replace(/\s+/g, '');
  if (!/^\d{14}$/.test(digits)) return null;
  return !scheme || scheme === SIRET_SCHEME ? digits : null;
}
