import type { Knex } from 'knex';
import { Decimal } from '../billing/index.js';
import type { Environment } from '../shared/caller.js';
import { breakdownShares, type InvoiceDetail, invoiceVatShares, loadInvoiceDetails } from './fec-invoice-details.js';
import type { AccountingFact, EntryRef } from './fec-postings.js';
import { partyOf } from './fec-postings.js';
import { NO_SUB_TENANT } from './fiscal-chain-summary.js';
import { EntryDataReader, parseVatBreakdown, type Row } from './fiscal-entry-data.js';

export type { InvoiceDetail } from './fec-invoice-details.js';

/** Which entries: one chain (a sub-tenant's, or the tenant's own when null) or every chain of the tenant. */
export interface FactSelector {
  tenantId: string;
  environment: Environment;
  chain: string | null | 'all';
  from?: string;
  to?: string;
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
  const invoices = await loadInvoiceDetails(() => entriesOf(tx, selector));
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
