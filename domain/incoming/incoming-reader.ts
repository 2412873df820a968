import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Caller } from '../shared/caller.js';
import type { IncomingInvoiceRow } from './incoming-row.js';
import { eventsOf, type IncomingReader } from './incoming-store.js';
import { type IncomingInvoiceView, toIncomingView } from './incoming-view.js';

/**
 * Which incoming invoices a caller sees: its tenant, its key's environment (a dashboard token:
 * both), its sub-tenant, and, for a user's key restricted to one company, that company's only
 * (the rule is in incoming-store.ts `readable`: the buyer's SIRET or the company's own inbox).
 */
export function incomingReaderOf(caller: Caller): IncomingReader {
  if (!caller.tenantId)
    throw new AppError('FORBIDDEN', 'Incoming invoices are read with an API key or a dashboard token.');
  return {
    tenantId: caller.tenantId,
    environment: caller.environment,
    subTenantId: caller.subTenantId ?? null,
    companyId: caller.companyId ?? null,
  };
}

/** Rows with their status histories, as the API shows them. */
export async function viewsOf(tx: Knex, rows: readonly IncomingInvoiceRow[]): Promise<IncomingInvoiceView[]> {
  if (rows.length === 0) return [];
  const events = await eventsOf(
    tx,
    rows[0].tenant_id,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toIncomingView(row, events.get(row.id) ?? []));
}
