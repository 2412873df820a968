import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';
import { ACCESS_TOKEN_LIFETIME_MS, type AccessTokenKind, generateAccessToken } from './access-token.js';

export interface NewAccessToken {
  tenantId: string;
  userId: string | null;
  kind: AccessTokenKind;
  environment?: Environment | null;
  ip?: string | null;
  userAgent?: string | null;
  now: Date;
}

/** Inserts a token and returns it in full: the only time it exists outside the client. */
export async function issueAccessToken(
  tx: Knex,
  input: NewAccessToken,
): Promise<{ id: string; token: string; expiresAt: Date }> {
  const { token, hash } = generateAccessToken();
  const expiresAt = new Date(input.now.getTime() + ACCESS_TOKEN_LIFETIME_MS[input.kind]);
  const [row] = await tx('access_tokens')
    .insert({
      tenant_id: input.tenantId,
      user_id: input.userId,
      kind: input.kind,
      environment: input.environment ?? null,
      token_hash: hash,
      expires_at: expiresAt,
      created_ip: input.ip ?? null,
      user_agent: input.userAgent?.slice(0, 500) ?? null,
      created_at: input.now,
    })
    .returning<{ id: string }[]>('id');
  return { id: row.id, token, expiresAt };
}

/** Logout: the token stops working with this transaction's commit. */
export async function revokeAccessToken(tx: Knex, id: string, now: Date): Promise<void> {
  await tx('access_tokens').where({ id }).whereNull('revoked_at').update({ revoked_at: now });
}
