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

/** A tenant's own key: secret keys carry every tenant scope, publishable keys none. */
export async function issueTenantKey(
  tx: Knex,
  tenantId: string,
  kind: KeyKind,
  environment: Environment,
  name = `${environment === 'production' ? 'Production' : 'Sandbox'} ${kind} key`,
  /** A secret key's scopes; every scope when left out. Publishable keys carry none. */
  scopes: readonly string[] = TENANT_KEY_SCOPES,
): Promise<IssuedTenantKey> {
  const created = await insertApiKey(tx, tenantId, {
    name,
    kind,
    environment,
    scopes: kind === 'secret' ? scopes : [],
  });
  return { id: created.id, key: created.key, type: kind, created_at: created.createdAt.toISOString() };
}
