import type { Knex } from 'knex';
import { Decimal } from '../billing/money.js';
import type { VatCategory } from '../documents/invoice-document.js';
import { groupTaxes, vatGroups } from '../invoicing/vat.js';
import type { Environment } from '../shared/caller.js';
import type { AccountingFact, EntryRef, VatShare } from './fec-postings.js';
import { partyOf } from './fec-postings.js';
import { NO_SUB_TENANT } from './fiscal-chain-summary.js';
import { EntryDataReader, parseVatBreakdown, type Row } from './fiscal-entry-data.js';

/** Which entries: one chain (a sub-tenant's, or the tenant's own when null) or every chain of the tenant. */
export interface FactSelector {
  tenantId: string;
  environment: Environment;
  chain: string | null | 'all';
  from?: string;
  to?: string;
}

/** What an invoice row adds to its ledger entry: its lines (VAT per rate) and, for purchases, the seller's name. */
export interface InvoiceDetail {
  sellerName: string;
  totals: { total_ht: string; total_tax: string; total_ttc: string };
  lines: { vatCategory: VatCategory; taxRate: Decimal; totalHt: Decimal; totalTax: Decimal }[];
}

/** An entry the FEC cannot represent, and why. */
export interface FactProblem {
  sequence_number: number;
  sub_tenant_id: string | null;
  entry_id: string;
  fiscal_date: string;
  reason: string;
}

export interface LoadedFacts {
  facts: AccountingFact[];
  problems: FactProblem[];
  invoices: Map<string, InvoiceDetail>;
}

interface EntryRow {
  id: string;
  sequence_number: number;
  sub_tenant_id: string | null;
  entry_type: string;
  entity_id: string;
  fiscal_date: string;
  data: Row;
  created_at: Date;
}

const entriesOf = (tx: Knex, s: FactSelector) =>
  tx('fiscal_entries as fe')
    .where({ 'fe.tenant_id': s.tenantId, 'fe.environment': s.environment })
    .modify((q) => {
      if (s.chain !== 'all') {
        q.andWhereRaw('coalesce(fe.sub_tenant_id, ?::uuid) = ?::uuid', [NO_SUB_TENANT, s.chain ?? NO_SUB_TENANT]);
      }
      if (s.from) q.andWhere('fe.fiscal_date', '>=', s.from);
      if (s.to) q.andWhere('fe.fiscal_date', '<=', s.to);
    })
    .whereIn('fe.entry_type', ['invoice_created', 'credit_note_issued', 'payment']);

/**
 * The entries of the selection in chronological order (fiscal date, then chain order), each read as
 * an accounting fact from its ledger data. Invoices add what their entry does not carry from
 * their row: VAT per rate (from the lines, rounded as the invoice states it) and a supplier's name.
 */
export async function loadAccountingFacts(tx: Knex, selector: FactSelector): Promise<LoadedFacts> {
  const rows = await entriesOf(tx, selector)
    .orderByRaw('fe.fiscal_date, coalesce(fe.sub_tenant_id, ?::uuid), fe.sequence_number', [NO_SUB_TENANT])
    .select<EntryRow[]>(
      'fe.id',
      'fe.sequence_number',
      'fe.sub_tenant_id',
      'fe.entry_type',
      'fe.entity_id',
      'fe.fiscal_date',
      'fe.data',
      'fe.created_at',
    );
  const invoices = await loadInvoiceDetails(tx, selector);
  const facts: AccountingFact[] = [];
  const problems: FactProblem[] = [];
  for (const row of rows) {
    const entry: EntryRef = {
      id: row.id,
      sequenceNumber: Number(row.sequence_number),
      subTenantId: row.sub_tenant_id,
      entryType: row.entry_type,
      entityId: row.entity_id,
      fiscalDate: row.fiscal_date,
      recordedAt: row.created_at,
    };
    const read = new EntryDataReader(row.data);
    const fact = toFact(entry, read, invoices.get(row.entity_id));
    const currency = read.text('currency');
    if (currency && currency !== 'EUR') {
      read.problems.push(`currency ${currency}: the FEC is kept in euros and the entry carries no euro amounts`);
    }
    if (read.problems.length) {
      problems.push({
        sequence_number: entry.sequenceNumber,
        sub_tenant_id: entry.subTenantId,
        entry_id: entry.id,
        fiscal_date: entry.fiscalDate,
        reason: read.problems.join('; '),
      });
    } else {
      facts.push(fact);
    }
  }
  return { facts, problems, invoices };
}

function toFact(entry: EntryRef, read: EntryDataReader, invoice: InvoiceDetail | undefined): AccountingFact {
  const direction = read.direction();
  const buyer = () => partyOf(read.optionalText('buyer_siret'), read.text('buyer_name'));
  if (entry.entryType === 'payment') {
    const party =
      direction === 'outgoing' ? buyer() : partyOf(read.optionalText('seller_siret'), read.text('seller_name'));
    return {
      kind: 'payment',
      entry,
      direction,
      pieceRef: read.text('payment_reference'),
      pieceDate: read.date('payment_date'),
      invoiceNumber: read.text('invoice_number'),
      party,
      amount: new Decimal(read.amount('amount')),
    };
  }
  const totalHt = new Decimal(read.amount('total_ht'));
  const totalTax = new Decimal(read.amount('total_tax'));
  const totalTtc = new Decimal(read.amount('total_ttc'));
  if (!totalHt.plus(totalTax).equals(totalTtc)) read.problems.push('total_ht + total_tax differs from total_ttc');
  const isInvoice = entry.entryType === 'invoice_created';
  const sellerName = isInvoice ? (invoice?.sellerName ?? read.text('seller_siret')) : read.text('seller_name');
  const party = direction === 'outgoing' ? buyer() : partyOf(read.optionalText('seller_siret'), sellerName);
  const vat = isInvoice
    ? invoiceVatShares(invoice, totalHt, totalTax)
    : breakdownShares(parseVatBreakdown(read.optionalText('vat_breakdown')), totalHt, totalTax);
  return {
    kind: isInvoice ? 'invoice' : 'credit_note',
    entry,
    direction,
    pieceRef: read.text(isInvoice ? 'invoice_number' : 'credit_note_number'),
    pieceDate: read.date('issue_date'),
    invoiceNumber: isInvoice ? null : read.text('invoice_number'),
    party,
    totalHt,
    totalTax,
    totalTtc,
    vat,
  };
}

const sum = (values: Decimal[]) => values.reduce((a, b) => a.plus(b), new Decimal(0));

/** VAT per rate from the invoice's lines, as its total states it (per rate or per line); one share if that does not add up. */
function invoiceVatShares(invoice: InvoiceDetail | undefined, totalHt: Decimal, totalTax: Decimal): VatShare[] {
  const single = [{ rate: null, taxable: totalHt, tax: totalTax }];
  if (!invoice?.lines.length) return single;
  const groups = vatGroups(invoice.lines.map((l) => ({ ...l, exemptionReason: null, exemptionCode: null })));
  const taxes = groupTaxes(groups, totalTax);
  if (!sum(taxes).equals(totalTax) || !sum(groups.map((g) => g.taxableAmount)).equals(totalHt)) return single;
  return groups.map((g, i) => ({ rate: g.rate.toFixed(2), taxable: g.taxableAmount, tax: taxes[i] }));
}

function breakdownShares(
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

/** The invoice rows and lines behind the selection's `invoice_created` entries, by invoice id. */
async function loadInvoiceDetails(tx: Knex, selector: FactSelector): Promise<Map<string, InvoiceDetail>> {
  const linked = () =>
    entriesOf(tx, selector)
      .andWhere('fe.entry_type', 'invoice_created')
      .join('invoices as i', 'i.fiscal_entry_id', 'fe.id');
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
