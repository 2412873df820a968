import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';
import { type KeyKind, TENANT_KEY_SCOPES } from './api-key.js';
import { insertApiKey } from './api-key-store.js';

export interface IssuedTenantKey {
  id: string;
  /** The full key: returned once, never stored. */
  key: string;
  type: KeyKind;
  created_at: string;
}

/**
 * A tenant's own key. Left out, a secret key's scopes are every tenant scope (the operator's command
 * line and a new tenant's first keys); operations pass what the caller may grant (key-scopes.ts).
 * Publishable keys carry none.
 */
export async function issueTenantKey(
  tx: Knex,
  tenantId: string,
  kind: KeyKind,
  environment: Environment,
  name = `${environment === 'production' ? 'Production' : 'Sandbox'} ${kind} key`,
  scopes: readonly string[] = TENANT_KEY_SCOPES,
  /** The sub-tenant a secret key is bound to, if any. */
  subTenantId: string | null = null,
): Promise<IssuedTenantKey> {
  const created = await insertApiKey(tx, tenantId, {
    name,
    kind,
    environment,
    scopes: kind === 'secret' ? scopes : [],
    subTenantId: kind === 'secret' ? subTenantId : null,
  });
  return { id: created.id, key: created.key, type: kind, created_at: created.createdAt.toISOString() };
}
