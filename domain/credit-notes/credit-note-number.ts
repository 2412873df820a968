import type { Knex } from 'knex';
import type { InvoiceOwner } from '../invoicing/index.js';
import { NO_SUB_TENANT } from '../ledger/index.js';
import { findNumberTaken } from './credit-note-store.js';

/**
 * The next generated number of an owner for the year of issue, `AV-YYYY-NNNN` (four digits at
 * least; `AV` for avoir). The owner's counter row is locked until the transaction ends, so
 * concurrent creations take turns; a number the caller already used by hand is skipped.
 */
export async function nextCreditNoteNumber(
  tx: Knex,
  owner: InvoiceOwner,
  sellerSiret: string,
  issueDate: string,
): Promise<string> {
  const year = Number(issueDate.slice(0, 4));
  for (;;) {
    const {
      rows: [row],
    } = await tx.raw<{ rows: { last_number: number }[] }>(
      `insert into credit_note_sequences (tenant_id, environment, sub_tenant_key, year, last_number)
       values (?, ?, ?, ?, 1)
       on conflict (tenant_id, environment, sub_tenant_key, year)
       do update set last_number = credit_note_sequences.last_number + 1
       returning last_number`,
      [owner.tenantId, owner.environment, owner.subTenantId ?? NO_SUB_TENANT, year],
    );
    const number = `AV-${year}-${String(row.last_number).padStart(4, '0')}`;
    if (!(await findNumberTaken(tx, owner, sellerSiret, number))) return number;
  }
}
