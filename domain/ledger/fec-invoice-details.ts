import type { Knex } from 'knex';
import { Decimal } from '../billing/index.js';
import { groupTaxes, type VatCategory, vatGroups } from '../documents/index.js';
import type { VatShare } from './fec-postings.js';
import type { parseVatBreakdown } from './fiscal-entry-data.js';

/** What an invoice row adds to its ledger entry: its lines (VAT per rate) and, for purchases, the seller's name. */
export interface InvoiceDetail {
  sellerName: string;
  totals: { total_ht: string; total_tax: string; total_ttc: string };
  lines: { vatCategory: VatCategory; taxRate: Decimal; totalHt: Decimal; totalTax: Decimal }[];
}

const sum = (values: Decimal[]) => values.reduce((a, b) => a.plus(b), new Decimal(0));

/** VAT per rate from the invoice's lines, as its total states it (per rate or per line); one share if that does not add up. */
export function invoiceVatShares(invoice: InvoiceDetail | undefined, totalHt: Decimal, totalTax: Decimal): VatShare[] {
  const single = [{ rate: null, taxable: totalHt, tax: totalTax }];
  if (!invoice?.lines.length) return single;
  const groups = vatGroups(invoice.lines.map((l) => ({ ...l, exemptionReason: null, exemptionCode: null })));
  const taxes = groupTaxes(groups, totalTax);
  if (!sum(taxes).equals(totalTax) || !sum(groups.map((g) => g.taxableAmount)).equals(totalHt)) return single;
  return groups.map((g, i) => ({ rate: g.rate.toFixed(2), taxable: g.taxableAmount, tax: taxes[i] }));
}

export function breakdownShares(
  groups: ReturnType<typeof parseVatBreakdown>,
  totalHt: Decimal,
  totalTax: Decimal,
): VatShare[] {
  const shares = (groups ?? []).map((g) => ({
    rate: new Decimal(g.rate).toFixed(2),
    taxable: new Decimal(g.taxable),
    tax: new Decimal(g.tax),
  }));
  const adds = shares.length > 0 && sum(shares.map((s) => s.tax)).equals(totalTax);
  return adds ? shares : [{ rate: null, taxable: totalHt, tax: totalTax }];
}

/** The invoice rows and lines behind the `invoice_created` entries among `entries` (aliased `fe`), by invoice id. */
export async function loadInvoiceDetails(entries: () => Knex.QueryBuilder): Promise<Map<string, InvoiceDetail>> {
  const linked = () =>
    entries().andWhere('fe.entry_type', 'invoice_created').join('invoices as i', 'i.fiscal_entry_id', 'fe.id');
  const heads = await linked().select<
    { id: string; seller_name: string; total_ht: string; total_tax: string; total_ttc: string }[]
  >('i.id', 'i.seller_name', 'i.total_ht', 'i.total_tax', 'i.total_ttc');
  const details = new Map<string, InvoiceDetail>(
    heads.map((h) => [
      h.id,
      {
        sellerName: h.seller_name,
        totals: { total_ht: h.total_ht, total_tax: h.total_tax, total_ttc: h.total_ttc },
        lines: [],
      },
    ]),
  );
  const lines = await linked()
    .join('invoice_lines as l', 'l.invoice_id', 'i.id')
    .orderBy([{ column: 'l.invoice_id' }, { column: 'l.line_number' }])
    .select<{ invoice_id: string; vat_category: VatCategory; tax_rate: string; total_ht: string; total_tax: string }[]>(
      'l.invoice_id',
      'l.vat_category',
      'l.tax_rate',
      'l.total_ht',
      'l.total_tax',
    );
  for (const l of lines) {
    details.get(l.invoice_id)?.lines.push({
      vatCategory: l.vat_category,
      taxRate: new Decimal(l.tax_rate),
      totalHt: new Decimal(l.total_ht),
      totalTax: new Decimal(l.total_tax),
    });
  }
  return details;
}
