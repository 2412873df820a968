import type { Knex } from 'knex';
import { type AuditFact, appendAuditEntries, appendAuditEntry } from '../audit/index.js';
import type { InvoiceRow } from './invoice-row.js';

/** One entry on an invoice's audit trail: what happened, with what, by whom, when. */
export type InvoiceAuditEntry = Omit<AuditFact, 'tenantId' | 'environment' | 'entityType' | 'entityId'>;

type AuditedInvoice = Pick<InvoiceRow, 'id' | 'tenant_id' | 'environment'>;

const factOf = (invoice: AuditedInvoice, entry: InvoiceAuditEntry): AuditFact => ({
  ...entry,
  tenantId: invoice.tenant_id,
  environment: invoice.environment,
  entityType: 'invoice',
  entityId: invoice.id,
});

/** Appends an entry to the invoice's hash-chained audit trail, in the caller's transaction. */
export function auditInvoice(tx: Knex, invoice: AuditedInvoice, entry: InvoiceAuditEntry): Promise<void> {
  return appendAuditEntry(tx, factOf(invoice, entry));
}

/** One entry on each of many invoices' trails, in two statements whatever their number. */
export function auditInvoices(
  tx: Knex,
  entries: readonly { invoice: AuditedInvoice; entry: InvoiceAuditEntry }[],
): Promise<void> {
  return appendAuditEntries(
    tx,
    entries.map(({ invoice, entry }) => factOf(invoice, entry)),
  );
}
