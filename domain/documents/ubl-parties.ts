import {
  buyerIdentifier,
  buyerLegalRegistration,
  buyerVatId,
  legalRegistration,
  type SchemedId,
  sellerVatId,
} from './document-rules.js';
import type { DocumentAddress, DocumentParty, InvoiceDocument } from './invoice-document.js';
import type { XmlWriter } from './xml-writer.js';

/** The UBL 2.1 parties: BG-4 seller and BG-7 buyer, in the `cac:Party` element order. */

const VAT_SCHEME = '<cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>';

interface PartyTerms {
  identifier: SchemedId | null; // BT-29 / BT-46
  legal: SchemedId | null; // BT-30 / BT-47
  vatId: string | null; // BT-31 / BT-48
}

/** `cac:AccountingSupplierParty` then `cac:AccountingCustomerParty`. */
export function writeUblParties(w: XmlWriter, doc: InvoiceDocument): void {
  w.open('cac:AccountingSupplierParty');
  writeParty(w, doc.seller, { identifier: null, legal: legalRegistration(doc.seller), vatId: sellerVatId(doc) });
  w.close('cac:AccountingSupplierParty');
  w.open('cac:AccountingCustomerParty');
  writeParty(w, doc.buyer, {
    identifier: buyerIdentifier(doc),
    legal: buyerLegalRegistration(doc),
    vatId: buyerVatId(doc),
  });
  w.close('cac:AccountingCustomerParty');
}

function writeParty(w: XmlWriter, party: DocumentParty, terms: PartyTerms): void {
  w.open('cac:Party');
  if (party.electronicAddress) {
    w.textWith('cbc:EndpointID', 'schemeID', party.electronicAddress.scheme, party.electronicAddress.value);
  }
  if (terms.identifier) {
    w.open('cac:PartyIdentification');
    writeId(w, 'cbc:ID', terms.identifier);
    w.close('cac:PartyIdentification');
  }
  writeAddress(w, 'cac:PostalAddress', party.address);
  if (terms.vatId) {
    w.open('cac:PartyTaxScheme').text('cbc:CompanyID', terms.vatId).raw(VAT_SCHEME).close('cac:PartyTaxScheme');
  }
  w.open('cac:PartyLegalEntity');
  w.text('cbc:RegistrationName', party.name);
  if (terms.legal) writeId(w, 'cbc:CompanyID', terms.legal);
  w.close('cac:PartyLegalEntity');
  w.close('cac:Party');
}

function writeId(w: XmlWriter, tag: string, id: SchemedId): void {
  if (id.scheme) w.textWith(tag, 'schemeID', id.scheme, id.value);
  else w.text(tag, id.value);
}

function writeAddress(w: XmlWriter, tag: string, address: DocumentAddress): void {
  w.open(tag);
  w.optionalText('cbc:StreetName', address.line1);
  w.optionalText('cbc:AdditionalStreetName', address.line2);
  w.optionalText('cbc:CityName', address.city);
  w.optionalText('cbc:PostalZone', address.postalCode);
  w.open('cac:Country').text('cbc:IdentificationCode', address.country).close('cac:Country');
  w.close(tag);
}
