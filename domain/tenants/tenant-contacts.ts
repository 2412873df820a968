import type { Knex } from 'knex';

/**
 * The addresses a tenant can be written to: its billing, technical and sign-in e-mails, and for a
 * dashboard user's workspace the first user's e-mail. Each notice picks them in its own order.
 */
export interface TenantContacts {
  billing: string | null;
  technical: string | null;
  account: string | null;
  /** A workspace's first user (null for platform tenants). */
  user: string | null;
}

export async function tenantContactsOf(tx: Knex, tenantId: string): Promise<TenantContacts> {
  const tenant = await tx('tenants')
    .where({ id: tenantId })
    .first<{ kind: string; technical_email: string | null; billing_email: string | null; email: string | null }>([
      'kind',
      'technical_email',
      'billing_email',
      'email',
    ]);
  const user =
    tenant?.kind === 'workspace'
      ? await tx('users').where({ tenant_id: tenantId }).orderBy('created_at').first<{ email: string }>('email')
      : undefined;
  return {
    billing: tenant?.billing_email ?? null,
    technical: tenant?.technical_email ?? null,
    account: tenant?.email ?? null,
    user: user?.email ?? null,
  };
}
