import type { Knex } from 'knex';

/**
 * Moves the rest of the operation's transaction to the system's view of the rows, across every
 * tenant: the admin operations, whose `admin access` permission `execute` has checked (a signed-in
 * admin only, never an API key), read and change other tenants' users, companies, balances and
 * sub-tenants. The setting ends with the transaction, like the tenant context it replaces.
 */
export async function actAcrossTenants(tx: Knex): Promise<void> {
  await tx.raw("select set_config('app.caller_kind', 'system', true)");
}
