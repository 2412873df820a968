import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Caller } from '../shared/caller.js';
import { requireSubTenant } from '../sub-tenants/index.js';
import type { InvoiceOwner } from './invoice-store.js';

/**
 * Whose invoice a caller creates or reads: the caller's tenant (a user's workspace or a platform),
 * the key's environment, and the sub-tenant named in the path or bound to the key. A sub-tenant
 * outside the caller's reach answers 404, like an unknown one.
 */
export async function invoiceOwnerOf(tx: Knex, caller: Caller, subTenantId?: string): Promise<InvoiceOwner> {
  if (!caller.tenantId || !caller.environment) {
    throw new AppError(
      'FORBIDDEN',
      'Invoices are created with an API key (sk_test_ or sk_live_), which decides the environment.',
    );
  }
  const owner = { tenantId: caller.tenantId, environment: caller.environment, subTenantId: caller.subTenantId ?? null };
  if (subTenantId === undefined) return owner;
  const subTenant = await requireSubTenant(tx, owner, subTenantId);
  return { ...owner, subTenantId: subTenant.id };
}

/** Which rows a reader sees: its tenant, its key's environment (a dashboard token sees both), its sub-tenant. */
export function readerOf(caller: Caller) {
  if (!caller.tenantId) throw new AppError('FORBIDDEN', 'Invoices are read with an API key or a dashboard token.');
  return { tenantId: caller.tenantId, environment: caller.environment, subTenantId: caller.subTenantId ?? null };
}
