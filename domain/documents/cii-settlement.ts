import { writeCiiDateTime } from './cii-date-time.js';
import { exemptionOf, rateOf } from './document-rules.js';
import { type DocumentVatBreakdown, type InvoiceDocument, precedingInvoicesOf } from './invoice-document.js';
import type { XmlWriter } from './xml-writer.js';

/**
 * `ram:ApplicableHeaderTradeSettlement`: BT-5, the VAT breakdown (BG-23), payment terms and due
 * date (BT-20, BT-9), the totals (BG-22) and the preceding invoice (BT-25/BT-26).
 * MINIMUM keeps only the currency and four totals.
 */
export function writeCiiSettlement(w: XmlWriter, doc: InvoiceDocument, minimum: boolean): void {
  w.open('ram:ApplicableHeaderTradeSettlement');
  w.text('ram:InvoiceCurrencyCode', doc.currency);
  if (minimum) {
    writeMinimumTotals(w, doc);
  } else {
    for (const row of doc.vatBreakdown) writeBreakdown(w, row);
    writePaymentTerms(w, doc);
    writeTotals(w, doc);
    // The CII D16B schema takes one InvoiceReferencedDocument: the first preceding invoice; a
    // document with several names them all in a note (BT-22) as well (domain/invoicing/to-document.ts).
    for (const preceding of precedingInvoicesOf(doc).slice(0, 1)) {
      w.open('ram:InvoiceReferencedDocument');
      w.text('ram:IssuerAssignedID', preceding.number);
      writeCiiDateTime(w, 'ram:FormattedIssueDateTime', preceding.issueDate, 'qdt');
      w.close('ram:InvoiceReferencedDocument');
    }
  }
  w.close('ram:ApplicableHeaderTradeSettlement');
}

/** One BG-23 row; ExemptionReason sits between TypeCode and BasisAmount in D16B. */
function writeBreakdown(w: XmlWriter, row: DocumentVatBreakdown): void {
  const exemption = exemptionOf(row);
  w.open('ram:ApplicableTradeTax');
  w.text('ram:CalculatedAmount', row.taxAmount);
  w.raw('<ram:TypeCode>VAT</ram:TypeCode>');
  w.optionalText('ram:ExemptionReason', exemption.reason);
  w.text('ram:BasisAmount', row.taxableAmount);
  w.text('ram:CategoryCode', row.category);
  w.optionalText('ram:ExemptionReasonCode', exemption.code);
  w.optionalText('ram:RateApplicablePercent', rateOf(row.category, row.rate));
  w.close('ram:ApplicableTradeTax');
}

function writePaymentTerms(w: XmlWriter, doc: InvoiceDocument): void {
  if (!doc.paymentTerms && !doc.dueDate) return;
  w.open('ram:SpecifiedTradePaymentTerms');
  w.optionalText('ram:Description', doc.paymentTerms);
  if (doc.dueDate) writeCiiDateTime(w, 'ram:DueDateDateTime', doc.dueDate);
  w.close('ram:SpecifiedTradePaymentTerms');
}

/** BT-106, BT-109, BT-110 (in the invoice currency: no BT-6, so no BT-111), BT-112, BT-113, BT-115. */
function writeTotals(w: XmlWriter, doc: InvoiceDocument): void {
  const totals = doc.totals;
  w.open('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  w.text('ram:LineTotalAmount', totals.lineTotal);
  w.text('ram:TaxBasisTotalAmount', totals.taxBasisTotal);
  w.textWith('ram:TaxTotalAmount', 'currencyID', doc.currency, totals.taxTotal);
  w.text('ram:GrandTotalAmount', totals.grandTotal);
  w.text('ram:TotalPrepaidAmount', totals.prepaidAmount);
  w.text('ram:DuePayableAmount', totals.duePayable);
  w.close('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
}

function writeMinimumTotals(w: XmlWriter, doc: InvoiceDocument): void {
  const totals = doc.totals;
  w.open('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
  w.text('ram:TaxBasisTotalAmount', totals.taxBasisTotal);
  w.textWith('ram:TaxTotalAmount', 'currencyID', doc.currency, totals.taxTotal);
  w.text('ram:GrandTotalAmount', totals.grandTotal);
  w.text('ram:DuePayableAmount', totals.duePayable);
  w.close('ram:SpecifiedTradeSettlementHeaderMonetarySummation');
}
