import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { issueAccessToken } from '../../domain/auth/access-token-store.js';
import type { Environment } from '../../domain/shared/caller.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { issueTenantKey } from '../../domain/tenants/tenant-keys.js';
import { insertTenant } from '../../domain/tenants/tenant-store.js';
import { ADMIN_PERMISSION } from '../../domain/users/operations/create-admin.js';
import { hashPassword } from '../../domain/users/password.js';
import { insertUser } from '../../domain/users/user-store.js';

/**
 * Identities for tests, written with the owner's connection (outside row-level security) through
 * the same stores the operations use. Each test seeds its own, so tests never share rows.
 */
export interface SeededUser {
  userId: string;
  tenantId: string;
  email: string;
  password: string;
  /** A bearer token, as login would hand out. */
  token: string;
}

export const PASSWORD = 'correct horse battery staple';

/**
 * A user as an established account: e-mail verified unless `verified: false` (a fresh sign-up that
 * has not followed its link yet).
 */
export async function seedUser(
  db: Knex,
  options: { admin?: boolean; email?: string; verified?: boolean } = {},
): Promise<SeededUser> {
  const now = new Date();
  const email = options.email ?? `user-${randomUUID()}@example.com`;
  const workspace = await insertTenant(db, { kind: 'workspace', name: email, now });
  const user = await insertUser(db, {
    tenantId: workspace.id,
    email,
    passwordHash: await hashPassword(PASSWORD),
    firstName: 'Ada',
    lastName: 'Lovelace',
    role: options.admin ? 'admin' : 'user',
    permissions: options.admin ? [ADMIN_PERMISSION] : [],
    emailVerifiedAt: options.verified === false ? null : now,
    now,
  });
  const { token } = await issueAccessToken(db, { tenantId: workspace.id, userId: user.id, kind: 'bearer', now });
  return { userId: user.id, tenantId: workspace.id, email, password: PASSWORD, token };
}

export interface KeyOptions {
  environment?: Environment;
  scopes?: string[];
  companyId?: string | null;
  expiresAt?: Date | null;
  revoked?: boolean;
}

/** An API key of a user, as POST /v1/api-keys would create it. */
export async function seedUserKey(db: Knex, user: SeededUser, options: KeyOptions = {}): Promise<string> {
  const created = await insertApiKey(db, user.tenantId, {
    name: 'test key',
    kind: 'secret',
    environment: options.environment ?? 'sandbox',
    scopes: options.scopes ?? ['invoices', 'signatures'],
    userId: user.userId,
    companyId: options.companyId ?? null,
    expiresAt: options.expiresAt ?? null,
  });
  if (options.revoked) {
    await db('api_keys').where({ id: created.id }).update({ status: 'revoked', revoked_at: new Date() });
  }
  return created.key;
}

/** A company whose KYC completed, which lets the user's production keys work. */
export async function seedVerifiedCompany(db: Knex, tenantId: string, siret = '73282932000074'): Promise<string> {
  const [row] = await db('companies')
    .insert({
      tenant_id: tenantId,
      name: 'Verified SARL',
      siret,
      address_line1: '1 rue de la Paix',
      postal_code: '75002',
      city: 'Paris',
      kyc_status: 'completed',
      kyc_completed_at: new Date(),
    })
    .returning<{ id: string }[]>('id');
  return row.id;
}

export interface SeededTenant {
  tenantId: string;
  email: string;
  password: string;
  keys: { sk_test: string; sk_live: string; pk_test: string; pk_live: string };
}

/** A platform tenant with its four keys, as `npx einvoice tenant create` makes it. */
export async function seedPlatformTenant(
  db: Knex,
  options: { kyb?: 'pending' | 'verified'; partner?: boolean; active?: boolean } = {},
): Promise<SeededTenant> {
  const now = new Date();
  const email = `tenant-${randomUUID()}@example.com`;
  const tenant = await insertTenant(db, {
    kind: 'platform',
    name: 'Platform SAS',
    email,
    siret: '73282932000074',
    isPartner: options.partner ?? false,
    kybStatus: options.kyb ?? 'verified',
    now,
  });
  await db('tenants')
    .where({ id: tenant.id })
    .update({ password_hash: await hashPassword(PASSWORD), is_active: options.active ?? true });
  const key = async (kind: 'secret' | 'publishable', environment: Environment) =>
    (await issueTenantKey(db, tenant.id, kind, environment)).key;
  return {
    tenantId: tenant.id,
    email,
    password: PASSWORD,
    keys: {
      sk_test: await key('secret', 'sandbox'),
      sk_live: await key('secret', 'production'),
      pk_test: await key('publishable', 'sandbox'),
      pk_live: await key('publishable', 'production'),
    },
  };
}

/** A sub-tenant of a tenant, in one environment (sandbox unless told). */
export async function seedSubTenant(
  db: Knex,
  tenantId: string,
  options: { environment?: Environment; name?: string } = {},
): Promise<string> {
  const [{ id }] = await db('sub_tenants')
    .insert({
      tenant_id: tenantId,
      environment: options.environment ?? 'sandbox',
      name: options.name ?? 'Buyer SAS',
      external_id: `ext-${randomUUID()}`,
    })
    .returning('id');
  return id;
}
