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

/** The trade parties of a CII document (BG-4 seller, BG-7 buyer), in the D16B element order. */

interface PartyTerms {
  identifier: SchemedId | null; // BT-29 / BT-46
  legal: SchemedId | null; // BT-30 / BT-47
  vatId: string | null; // BT-31 / BT-48
}

/** `ram:ApplicableHeaderTradeAgreement`: BT-10, the seller and the buyer. */
export function writeCiiAgreement(w: XmlWriter, doc: InvoiceDocument, minimum: boolean): void {
  w.open('ram:ApplicableHeaderTradeAgreement');
  w.optionalText('ram:BuyerReference', doc.buyerReference);
  const seller = { identifier: null, legal: legalRegistration(doc.seller), vatId: sellerVatId(doc) };
  const buyer = { identifier: buyerIdentifier(doc), legal: buyerLegalRegistration(doc), vatId: buyerVatId(doc) };
  if (minimum) {
    writeMinimumParty(w, 'ram:SellerTradeParty', doc.seller, seller, true);
    writeMinimumParty(w, 'ram:BuyerTradeParty', doc.buyer, buyer, false);
  } else {
    writeParty(w, 'ram:SellerTradeParty', doc.seller, seller);
    writeParty(w, 'ram:BuyerTradeParty', doc.buyer, buyer);
  }
  w.close('ram:ApplicableHeaderTradeAgreement');
}

function writeParty(w: XmlWriter, tag: string, party: DocumentParty, terms: PartyTerms): void {
  w.open(tag);
  if (terms.identifier) writeId(w, 'ram:GlobalID', terms.identifier);
  w.text('ram:Name', party.name);
  writeLegalOrganization(w, terms.legal);
  writeAddress(w, party.address);
  if (party.electronicAddress) {
    w.open('ram:URIUniversalCommunication');
    w.textWith('ram:URIID', 'schemeID', party.electronicAddress.scheme, party.electronicAddress.value);
    w.close('ram:URIUniversalCommunication');
  }
  writeVatRegistration(w, terms.vatId);
  w.close(tag);
}

/**
 * Factur-X MINIMUM keeps the seller's name, BT-30, country and BT-31, and the buyer's name and
 * BT-47 (its XSD has no room for more).
 */
function writeMinimumParty(w: XmlWriter, tag: string, party: DocumentParty, terms: PartyTerms, seller: boolean): void {
  w.open(tag);
  w.text('ram:Name', party.name);
  writeLegalOrganization(w, terms.legal);
  if (seller) {
    w.open('ram:PostalTradeAddress').text('ram:CountryID', party.address.country).close('ram:PostalTradeAddress');
    writeVatRegistration(w, terms.vatId);
  }
  w.close(tag);
}

function writeLegalOrganization(w: XmlWriter, legal: SchemedId | null): void {
  if (!legal) return;
  w.open('ram:SpecifiedLegalOrganization');
  writeId(w, 'ram:ID', legal);
  w.close('ram:SpecifiedLegalOrganization');
}

function writeVatRegistration(w: XmlWriter, vatId: string | null): void {
  if (!vatId) return;
  w.open('ram:SpecifiedTaxRegistration');
  w.textWith('ram:ID', 'schemeID', 'VA', vatId);
  w.close('ram:SpecifiedTaxRegistration');
}

function writeId(w: XmlWriter, tag: string, id: SchemedId): void {
  if (id.scheme) w.textWith(tag, 'schemeID', id.scheme, id.value);
  else w.text(tag, id.value);
}

function writeAddress(w: XmlWriter, address: DocumentAddress): void {
  w.open('ram:PostalTradeAddress');
  w.optionalText('ram:PostcodeCode', address.postalCode);
  w.optionalText('ram:LineOne', address.line1);
  w.optionalText('ram:LineTwo', address.line2);
  w.optionalText('ram:CityName', address.city);
  w.text('ram:CountryID', address.country);
  w.close('ram:PostalTradeAddress');
}
