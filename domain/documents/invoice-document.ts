/**
 * What a generated document says, independent of its syntax: one model that the CII, UBL, PDF and
 * Factur-X writers all read, built once from the stored invoice (domain/invoices/to-document.ts).
 * Every amount is a decimal string already rounded as EN 16931 wants it (2 places; quantities up to
 * 4; prices up to 4), so a writer only prints; it never computes or rounds.
 *
 * The business terms (BT-n) are EN 16931's; a writer maps each field to its syntax.
 */

/** EN 16931 VAT category codes the API accepts (UNTDID 5305 subset). */
export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

/** Factur-X profiles (BT-24); `en16931` is the default. */
export const CII_PROFILES = ['minimum', 'basicwl', 'basic', 'en16931', 'extended'] as const;
export type CiiProfile = (typeof CII_PROFILES)[number];

/** The three output formats of the API. */
export const OUTPUT_FORMATS = ['facturx', 'ubl', 'cii'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface DocumentAddress {
  line1: string; // BT-35 / BT-50
  line2: string | null; // BT-36 / BT-51
  postalCode: string; // BT-38 / BT-53
  city: string; // BT-37 / BT-52
  country: string; // BT-40 / BT-55, ISO 3166-1 alpha-2
}

export interface DocumentParty {
  name: string; // BT-27 / BT-44
  /** SIRET (14 digits); printed as the legal registration identifier (BT-30 / BT-47, scheme 0002 is SIREN, 0009 is SIRET). */
  siret: string | null;
  /** Intra-EU VAT identifier (BT-31 / BT-48), already normalised (`FR` + key + SIREN). */
  vatNumber: string | null;
  /** Another legal identifier given for the buyer (`buyer_legal_id`) when there is no SIRET. */
  legalId: string | null;
  address: DocumentAddress;
  /** Electronic address (BT-34 / BT-49): SIREN under scheme 0225 for French parties, else null. */
  electronicAddress: { scheme: string; value: string } | null;
}

export interface DocumentLine {
  lineNumber: number; // BT-126
  description: string; // BT-153 (item name)
  quantity: string; // BT-129, up to 4 decimals
  unitCode: string; // BT-130, UN/ECE rec 20 (`C62` = one)
  unitPrice: string; // BT-146 net price, up to 4 decimals
  netAmount: string; // BT-131 = quantity × unit price, 2 decimals
  vatCategory: VatCategory; // BT-151
  /** BT-152 percent; `null` for category O (not subject to VAT). */
  vatRate: string | null;
}

/** One row of the VAT breakdown (BG-23), one per (category, rate). */
export interface DocumentVatBreakdown {
  category: VatCategory; // BT-118
  rate: string | null; // BT-119; null for O
  taxableAmount: string; // BT-116
  taxAmount: string; // BT-117
  /** BT-120, required for E, AE, K, G, O. */
  exemptionReason: string | null;
  /** BT-121 (VATEX code), set with the reason where one exists. */
  exemptionReasonCode: string | null;
}

export interface DocumentTotals {
  lineTotal: string; // BT-106, sum of line net amounts
  taxBasisTotal: string; // BT-109
  taxTotal: string; // BT-110, in the invoice currency
  grandTotal: string; // BT-112
  prepaidAmount: string; // BT-113
  duePayable: string; // BT-115
}

/** A free-text note (BT-22) with its subject code (BT-21, UNTDID 4451: PMT, PMD, AAB, REG...). */
export interface DocumentNote {
  subjectCode: string | null;
  text: string;
}

export interface InvoiceDocument {
  /** The printed title when it is not the type code's (a quote's PDF: DEVIS); the XML writers ignore it. */
  title?: string;
  /** BT-3: 380 commercial invoice, 381 credit note, 386 prepayment invoice. */
  typeCode: '380' | '381' | '386';
  number: string; // BT-1
  issueDate: string; // BT-2, YYYY-MM-DD
  dueDate: string | null; // BT-9
  currency: string; // BT-5, ISO 4217
  /** BT-10: the caller's `external_id` when given, else null. */
  buyerReference: string | null;
  seller: DocumentParty;
  buyer: DocumentParty;
  /** The buyer is a consumer: BT-46, BT-47 and BT-48 are left out, and so are the B2B payment mentions. */
  buyerIsIndividual: boolean;
  /** BT-72 actual delivery date: the issue date, needed by intra-community supply (K, BR-IC-11). */
  deliveryDate: string | null;
  /** BT-80 deliver-to country, set for intra-community supply (K, BR-IC-12). */
  deliverToCountry: string | null;
  lines: DocumentLine[];
  vatBreakdown: DocumentVatBreakdown[];
  totals: DocumentTotals;
  /** BT-20 payment terms (free text), e.g. the due date in words; null when there is none. */
  paymentTerms: string | null;
  /**
   * BT-22 notes: for a business buyer the French legal mentions (PMT late-payment penalties, PMD
   * 40 EUR recovery indemnity, AAB no early-payment discount); none for an individual.
   */
  notes: DocumentNote[];
  /** BT-25/BT-26: the invoice a credit note corrects. */
  precedingInvoice: { number: string; issueDate: string } | null;
  /**
   * BG-3, when there are several: the deposit invoices a balance invoice deducts. Written instead of
   * `precedingInvoice` when set: all of them in UBL (BillingReference 0..n) and the PDF, the first
   * in CII (whose D16B schema takes one InvoiceReferencedDocument); the notes name them all.
   */
  precedingInvoices?: readonly { number: string; issueDate: string }[];
}

/** The preceding invoices of a document (BG-3): `precedingInvoices`, else `precedingInvoice`. */
export const precedingInvoicesOf = (doc: InvoiceDocument): readonly { number: string; issueDate: string }[] =>
  doc.precedingInvoices ?? (doc.precedingInvoice ? [doc.precedingInvoice] : []);
