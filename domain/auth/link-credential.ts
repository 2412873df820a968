import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Caller, CredentialType } from '../shared/caller.js';
import { enterTenant } from '../shared/tenant-context.js';

/**
 * The credential a signed link was issued to, as the link's claims carry it: its type, its row id
 * and the tenant whose rows hold it. Links made without one (the command line, workers) carry none.
 */
export interface LinkCredentialClaims {
  cred?: { type: CredentialType; id: string; tenant: string };
}

/** The claim naming the caller's credential, to put in a link it asks for. */
export const linkCredentialOf = (caller: Caller): LinkCredentialClaims =>
  caller.credential && caller.tenantId
    ? { cred: { type: caller.credential.type, id: caller.credential.id, tenant: caller.tenantId } }
    : {};

const KEY_TYPES: readonly CredentialType[] = ['secret_key', 'publishable_key'];

/**
 * A link serves only while the credential that asked for it is still good: revoking a leaked key,
 * or signing out a session, also ends the links it handed out. One primary-key lookup, in the
 * credential's tenant context (row-level security); the caller then enters the file's tenant.
 */
export async function assertLinkCredentialActive(tx: Knex, claims: LinkCredentialClaims, now: Date): Promise<void> {
  const cred = claims.cred;
  if (!cred) return;
  if (typeof cred.id !== 'string' || typeof cred.tenant !== 'string') throw revoked();
  await enterTenant(tx, cred.tenant);
  const active = KEY_TYPES.includes(cred.type)
    ? await tx('api_keys')
        .where({ id: cred.id, status: 'active' })
        .andWhere((q) => q.whereNull('expires_at').orWhere('expires_at', '>', now))
        .first('id')
    : await tx('access_tokens')
        .where({ id: cred.id })
        .whereNull('revoked_at')
        .andWhere('expires_at', '>', now)
        .first('id');
  if (!active) throw revoked();
}

/**
 * The row behind a signed download link: the credential that asked for the link must still be
 * good, then the link's claims (not the absent credentials of the request) say whose rows it may
 * read; `find` reads the file there. 404 FILE_NOT_FOUND when the file is gone.
 */
export async function readLinkedFile<T>(
  tx: Knex,
  claims: LinkCredentialClaims & { tenant_id: string },
  now: Date,
  find: () => Promise<T | undefined>,
): Promise<T> {
  await assertLinkCredentialActive(tx, claims, now);
  await enterTenant(tx, claims.tenant_id);
  const file = await find();
  if (!file) throw new AppError('FILE_NOT_FOUND', 'This file is no longer available. Ask for a new link.');
  return file;
}

const revoked = () =>
  new AppError(
    'DOWNLOAD_LINK_INVALID',
    'The credential that asked for this download link was revoked or has expired, so the link no longer works. Ask the API for a new one.',
  );
