import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import { findTenant } from '../tenants/index.js';
import { findUser } from '../users/index.js';

/**
 * The tenant whose balance an operator's manual movement (credit or debit) applies to: the tenant
 * given, or the workspace of the user given; exactly one of the two. 404 when it does not exist.
 */
export async function balanceOwner(tx: Knex, input: { tenant_id?: string; user_id?: string }): Promise<string> {
  if (Boolean(input.tenant_id) === Boolean(input.user_id)) {
    throw AppError.validation({ tenant_id: ['give exactly one of tenant_id and user_id'] });
  }
  const tenantId = input.tenant_id ?? (await findUser(tx, input.user_id!))?.tenant_id;
  if (!tenantId || !(await findTenant(tx, tenantId))) {
    const what = input.tenant_id ? `tenant ${input.tenant_id}` : `user ${input.user_id}`;
    throw new AppError('NOT_FOUND', `No ${what}.`);
  }
  return tenantId;
}
