import type { Knex } from 'knex';
import type { Caller } from './caller.js';
import { prepared } from './prepared-statements.js';

/**
 * Per-transaction settings read by the row-level security policies
 * (migrations/20261122001200_isolate_tenants.ts). They end with the transaction, so a pooled
 * connection never carries one request's tenant into the next.
 */
export async function setTenantContext(
  tx: Knex.Transaction,
  caller: Pick<Caller, 'tenantId' | 'environment' | 'kind'>,
): Promise<void> {
  await tx.raw(
    "select set_config('app.tenant_id', ?, true), set_config('app.environment', ?, true), set_config('app.caller_kind', ?, true)",
    [caller.tenantId ?? '', caller.environment ?? '', caller.kind],
  );
}

/**
 * The same settings, and the transaction's id in the same round trip: taken at the start, so that a
 * commit whose answer is lost can be looked up afterwards (commit-outcome.ts). `flushedCommit`
 * false also sets `synchronous_commit = off` for the transaction (Operation.redoneIfLost).
 * `batchTenants`, for a group commit's transaction of several tenants (whose caller then has no
 * tenant): the tenants whose rows the transaction may see and write (`app.tenant_ids`).
 */
export async function setTenantContextTakingXid(
  tx: Knex.Transaction,
  caller: Pick<Caller, 'tenantId' | 'environment' | 'kind'>,
  flushedCommit = true,
  batchTenants: readonly string[] | null = null,
): Promise<string> {
  const { rows } = await prepared(
    tx.raw<{ rows: { xid: string }[] }>(flushedCommit ? TAKING_XID : TAKING_XID_UNFLUSHED, [
      caller.tenantId ?? '',
      batchTenants ? `{${batchTenants.join(',')}}` : '',
      caller.environment ?? '',
      caller.kind,
    ]),
    'tenant_context',
  );
  return rows[0].xid;
}

const TAKING_XID =
  "select set_config('app.tenant_id', ?, true), set_config('app.tenant_ids', ?, true), set_config('app.environment', ?, true), set_config('app.caller_kind', ?, true), txid_current()::text as xid";
const TAKING_XID_UNFLUSHED = TAKING_XID.replace(
  ' txid_current()',
  " set_config('synchronous_commit', 'off', true), txid_current()",
);

/**
 * Moves the rest of the transaction into one tenant's rows: used once a public operation (register,
 * login, password reset) has established whose data it is writing.
 */
export async function enterTenant(tx: Knex, tenantId: string): Promise<void> {
  await tx.raw("select set_config('app.tenant_id', ?, true)", [tenantId]);
}

/** A short transaction in the caller's tenant context, for work outside an operation (idempotency records). */
export function inTenantContext<T>(
  db: Knex,
  caller: Pick<Caller, 'tenantId' | 'environment' | 'kind'>,
  run: (tx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await setTenantContext(tx, caller);
    return run(tx);
  });
}
