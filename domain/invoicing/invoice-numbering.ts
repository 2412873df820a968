import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { NumberedInvoice, PreparedInvoice } from './invoice.js';
import { type InvoiceOwner, numbersTaken } from './invoice-store.js';

const DEFAULT_PREFIX = 'F-';
/** A tenant's `settings.invoice_prefix` is used when it is this tame (the number stays ≤ 50 characters). */
const PREFIX_SHAPE = /^[A-Za-z0-9._/-]{1,20}$/;

/**
 * The numbering of invoices created for a sub-tenant without an `invoice_number` (service-spec
 * "Sub-tenant": each sub-tenant has its own numbering sequence): `<prefix><n>` with n from
 * `sub_tenants.invoice_sequence`, six digits at least, the prefix being the tenant's
 * `settings.invoice_prefix` (default `F-`). The counter is raised by one UPDATE per sub-tenant for
 * all the invoices of a write (group commit, bulk), which locks the sub-tenant's row until the
 * transaction ends: concurrent creations take turns, a batch gets distinct consecutive numbers in
 * its order, and a rolled-back creation gives its numbers back, so the series has no gap. A number
 * the sub-tenant already used by hand is skipped (it exists, so the series stays whole).
 */
export async function numberInvoices<T extends { owner: InvoiceOwner; prepared: PreparedInvoice }>(
  tx: Knex,
  items: readonly T[],
): Promise<(T & { prepared: NumberedInvoice })[]> {
  const wanting = new Map<string, number[]>();
  items.forEach((item, i) => {
    if (item.prepared.invoiceNumber !== null) return;
    const subTenantId = item.owner.subTenantId;
    if (subTenantId === null) throw missingNumber();
    wanting.set(subTenantId, [...(wanting.get(subTenantId) ?? []), i]);
  });
  const numbers = new Map<number, string>();
  // one sub-tenant row after the other, in id order: two writes never lock them crosswise
  for (const subTenantId of [...wanting.keys()].sort()) {
    const indexes = wanting.get(subTenantId) as number[];
    const taken = await takeNumbers(tx, items[indexes[0]].owner, indexes.length);
    for (const [k, index] of indexes.entries()) numbers.set(index, taken[k]);
  }
  return items.map((item, i) => {
    const number = numbers.get(i);
    return (number === undefined ? item : { ...item, prepared: { ...item.prepared, invoiceNumber: number } }) as T & {
      prepared: NumberedInvoice;
    };
  });
}

/** 422 on `invoice_number` for an invoice that no sequence can number (not a sub-tenant's). */
export const missingNumber = () =>
  AppError.validation({
    invoice_number: ["is required (only a sub-tenant's invoice may leave it out: its sequence numbers it)"],
  });

async function takeNumbers(tx: Knex, owner: InvoiceOwner, count: number): Promise<string[]> {
  const prefix = await prefixOf(tx, owner.tenantId);
  const free: string[] = [];
  while (free.length < count) {
    const need = count - free.length;
    const [row] = await tx('sub_tenants')
      .where({ id: owner.subTenantId, tenant_id: owner.tenantId, environment: owner.environment })
      .increment('invoice_sequence', need)
      .returning<{ invoice_sequence: number }[]>('invoice_sequence');
    if (!row) throw new AppError('NOT_FOUND', 'No such sub-tenant.');
    const last = Number(row.invoice_sequence);
    const candidates = Array.from(
      { length: need },
      (_, k) => `${prefix}${String(last - need + 1 + k).padStart(6, '0')}`,
    );
    const used = await numbersTaken(tx, owner, candidates);
    free.push(...candidates.filter((n) => !used.has(n)));
  }
  return free;
}

async function prefixOf(tx: Knex, tenantId: string): Promise<string> {
  const row = await tx('tenants')
    .where({ id: tenantId })
    .first<{ prefix: unknown } | undefined>(tx.raw("settings->>'invoice_prefix' as prefix"));
  return typeof row?.prefix === 'string' && PREFIX_SHAPE.test(row.prefix) ? row.prefix : DEFAULT_PREFIX;
}
