import { create } from 'xmlbuilder2';
import type { CiiProfile } from '../../domain/documents/invoice-document.js';

/** What a generated document says about its buyer, read back by a real XML parser. */
export interface BuyerView {
  name: string | null; // BT-44
  identifier: string | null; // BT-46
  legalId: string | null; // BT-47
  vatId: string | null; // BT-48
  city: string | null; // BT-52
}

type Element = { nodeType: number; nodeName: string; textContent: string | null; childNodes: ArrayLike<Element> };

/** The direct child of `parent` at the end of `path` (element names with their prefixes), or null. */
function at(parent: Element | null, ...path: string[]): Element | null {
  let node = parent;
  for (const name of path) {
    if (!node) return null;
    node = Array.from(node.childNodes).find((c) => c.nodeType === 1 && c.nodeName === name) ?? null;
  }
  return node;
}

const text = (node: Element | null): string | null => node?.textContent ?? null;

/** The buyer party of a UBL document or of a CII document of any profile. */
export function buyerParty(xml: Buffer, syntax: 'ubl' | CiiProfile): BuyerView {
  const root = (create(xml.toString('utf8')).node as unknown as { documentElement: Element }).documentElement;
  if (syntax === 'ubl') {
    const party = at(root, 'cac:AccountingCustomerParty', 'cac:Party');
    return {
      name: text(at(party, 'cac:PartyLegalEntity', 'cbc:RegistrationName')),
      identifier: text(at(party, 'cac:PartyIdentification', 'cbc:ID')),
      legalId: text(at(party, 'cac:PartyLegalEntity', 'cbc:CompanyID')),
      vatId: text(at(party, 'cac:PartyTaxScheme', 'cbc:CompanyID')),
      city: text(at(party, 'cac:PostalAddress', 'cbc:CityName')),
    };
  }
  const party = at(
    root,
    'rsm:SupplyChainTradeTransaction',
    'ram:ApplicableHeaderTradeAgreement',
    'ram:BuyerTradeParty',
  );
  return {
    name: text(at(party, 'ram:Name')),
    identifier: text(at(party, 'ram:GlobalID')) ?? text(at(party, 'ram:ID')),
    legalId: text(at(party, 'ram:SpecifiedLegalOrganization', 'ram:ID')),
    vatId: text(at(party, 'ram:SpecifiedTaxRegistration', 'ram:ID')),
    city: text(at(party, 'ram:PostalTradeAddress', 'ram:CityName')),
  };
}
