/**
 * The namespaces an incoming invoice's elements are matched by (never by their prefixes, which a
 * sender chooses freely): OASIS UBL 2.1 and UN/CEFACT CII D16B, as EN 16931-3-2 and -3-3 bind them.
 */

/** An element name: its namespace URI and local name. */
export interface QName {
  ns: string;
  local: string;
}

export const UBL_INVOICE = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
export const UBL_CREDIT_NOTE = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
export const UBL_CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
export const UBL_CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';

export const CII_RSM = 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100';
export const CII_RAM = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';
export const CII_UDT = 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100';

const inNamespace =
  (ns: string) =>
  (local: string): QName => ({ ns, local });

/** UBL basic components (`cbc:`): values. */
export const cbc = inNamespace(UBL_CBC);
/** UBL aggregate components (`cac:`): groups of components. */
export const cac = inNamespace(UBL_CAC);
/** CII root schema module (`rsm:`): the root's children. */
export const rsm = inNamespace(CII_RSM);
/** CII reusable aggregate business information entities (`ram:`): everything below them. */
export const ram = inNamespace(CII_RAM);
/** CII unqualified data types (`udt:`): DateTimeString. */
export const udt = inNamespace(CII_UDT);

/** The root elements read as invoices, by namespace and local name. */
export const UBL_INVOICE_ROOT: QName = { ns: UBL_INVOICE, local: 'Invoice' };
export const UBL_CREDIT_NOTE_ROOT: QName = { ns: UBL_CREDIT_NOTE, local: 'CreditNote' };
export const CII_ROOT: QName = { ns: CII_RSM, local: 'CrossIndustryInvoice' };
