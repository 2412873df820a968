import { Decimal } from '../domain/billing/money.js';
import type { DocumentLine, InvoiceDocument } from '../domain/documents/invoice-document.js';
import { renderInvoicePdf, writeFacturX } from '../domain/documents/pdf/index.js';

/** Documents per second of the readable PDF and of the Factur-X PDF/A-3, one process, one core. */
export interface PdfDocumentsReport {
  pdf_per_second: number;
  facturx_per_second: number;
}

/**
 * Measures `renderInvoicePdf` and `writeFacturX` on a 10-line invoice for `seconds` each, after a
 * warm-up (JIT, and the fonts prepared when the module loaded). The embedded XML is a fixed buffer
 * of CII's shape and size: the writer packages it without reading it.
 */
export async function measurePdfDocuments(seconds: number): Promise<PdfDocumentsReport> {
  const doc = benchDocument();
  const cii = benchCii(doc);
  const pdf = rate(() => renderInvoicePdf(doc), seconds);
  const facturx = rate(() => writeFacturX(doc, cii, 'en16931'), seconds);
  return { pdf_per_second: pdf, facturx_per_second: facturx };
}

function rate(make: () => Buffer, seconds: number): number {
  const warmUntil = performance.now() + Math.min(1000, seconds * 200);
  while (performance.now() < warmUntil) make();
  const start = performance.now();
  let count = 0;
  while (performance.now() - start < seconds * 1000) {
    make();
    count += 1;
  }
  return Math.round((count / ((performance.now() - start) / 1000)) * 10) / 10;
}

/** A B2B invoice with 10 lines at 20 % VAT, amounts computed with decimal.js. */
function benchDocument(): InvoiceDocument {
  const lines: DocumentLine[] = Array.from({ length: 10 }, (_, i) => {
    const quantity = new Decimal(i + 1);
    const unitPrice = new Decimal(45).plus(i * 12.5);
    return {
      lineNumber: i + 1,
      description: `Prestation de conseil n° ${i + 1} : analyse, développement & intégration du module ${i + 1}`,
      quantity: quantity.toFixed(4),
      unitCode: 'HUR',
      unitPrice: unitPrice.toFixed(4),
      netAmount: quantity.times(unitPrice).toFixed(2),
      vatCategory: 'S',
      vatRate: '20.00',
    };
  });
  const net = Decimal.sum(...lines.map((l) => l.netAmount));
  const tax = net.times('0.2').toDecimalPlaces(2);
  const address = { line1: '12 rue de la Paix', line2: null, postalCode: '75002', city: 'Paris', country: 'FR' };
  const party = (name: string, siren: string) => ({
    name,
    siret: `${siren}00017`,
    vatNumber: `FR00${siren}`,
    legalId: null,
    address,
    electronicAddress: { scheme: '0225', value: siren },
  });
  return {
    typeCode: '380',
    number: 'BENCH-2026-0001',
    issueDate: '2026-01-15',
    dueDate: '2026-02-14',
    currency: 'EUR',
    buyerReference: 'PO-1',
    seller: party('Atelier Numérique SAS', '732829320'),
    buyer: party('Boulangerie Dupré SARL', '552100554'),
    buyerIsIndividual: false,
    deliveryDate: null,
    deliverToCountry: null,
    lines,
    vatBreakdown: [
      {
        category: 'S',
        rate: '20.00',
        taxableAmount: net.toFixed(2),
        taxAmount: tax.toFixed(2),
        exemptionReason: null,
        exemptionReasonCode: null,
      },
    ],
    totals: {
      lineTotal: net.toFixed(2),
      taxBasisTotal: net.toFixed(2),
      taxTotal: tax.toFixed(2),
      grandTotal: net.plus(tax).toFixed(2),
      prepaidAmount: '0.00',
      duePayable: net.plus(tax).toFixed(2),
    },
    paymentTerms: 'Paiement à 30 jours par virement.',
    notes: [
      { subjectCode: 'PMT', text: "Pénalités de retard : trois fois le taux d'intérêt légal." },
      { subjectCode: 'PMD', text: 'Indemnité forfaitaire pour frais de recouvrement : 40 €.' },
    ],
    precedingInvoice: null,
  };
}

/** A CII-shaped XML of about the size the CII writer gives for this document (its content is not checked). */
function benchCii(doc: InvoiceDocument): Buffer {
  const items = doc.lines.map(
    (line) => `<ram:IncludedSupplyChainTradeLineItem>
<ram:AssociatedDocumentLineDocument><ram:LineID>${line.lineNumber}</ram:LineID></ram:AssociatedDocumentLineDocument>
<ram:SpecifiedTradeProduct><ram:Name>${line.description.replace('&', '&amp;')}</ram:Name></ram:SpecifiedTradeProduct>
<ram:SpecifiedLineTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>${line.unitPrice}</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedLineTradeAgreement>
<ram:SpecifiedLineTradeDelivery><ram:BilledQuantity unitCode="${line.unitCode}">${line.quantity}</ram:BilledQuantity></ram:SpecifiedLineTradeDelivery>
<ram:SpecifiedLineTradeSettlement><ram:ApplicableTradeTax><ram:TypeCode>VAT</ram:TypeCode><ram:CategoryCode>S</ram:CategoryCode><ram:RateApplicablePercent>20.00</ram:RateApplicablePercent></ram:ApplicableTradeTax>
<ram:SpecifiedTradeSettlementLineMonetarySummation><ram:LineTotalAmount>${line.netAmount}</ram:LineTotalAmount></ram:SpecifiedTradeSettlementLineMonetarySummation></ram:SpecifiedLineTradeSettlement>
</ram:IncludedSupplyChainTradeLineItem>`,
  );
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100">
<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>
<rsm:ExchangedDocument><ram:ID>${doc.number}</ram:ID><ram:TypeCode>${doc.typeCode}</ram:TypeCode></rsm:ExchangedDocument>
<rsm:SupplyChainTradeTransaction>
${items.join('\n')}
</rsm:SupplyChainTradeTransaction>
</rsm:CrossIndustryInvoice>
`,
    'utf8',
  );
}
