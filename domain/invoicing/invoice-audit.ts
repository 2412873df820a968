import type { Knex } from 'knex';
import { type AuditFact, appendAuditEntry } from '../audit/audit-trail.js';
import type { InvoiceRow } from './invoice-row.js';

/** One entry on an invoice's audit trail: what happened, with what, by whom, when. */
export type InvoiceAuditEntry = Omit<AuditFact, 'tenantId' | 'environment' | 'entityType' | 'entityId'>;

/** Appends an entry to the invoice's hash-chained audit trail, in the caller's transaction. */
export function auditInvoice(
  tx: Knex,
  invoice: Pick<InvoiceRow, 'id' | 'tenant_id' | 'environment'>,
  entry: InvoiceAuditEntry,
): Promise<void> {
  return appendAuditEntry(tx, {
    ...entry,
    tenantId: invoice.tenant_id,
    environment: invoice.environment,
    entityType: 'invoice',
    entityId: invoice.id,
  });
}
