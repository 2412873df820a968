import { AppError } from '../shared/app-error.js';
import type { Caller } from '../shared/caller.js';
import { TENANT_KEY_SCOPES } from './api-key.js';

/** What the caller's credential holds, as key scopes (the system's `*` stands for every tenant scope). */
export const heldScopes = (caller: Caller): readonly string[] =>
  caller.scopes.includes('*') ? TENANT_KEY_SCOPES : caller.scopes;

/**
 * The scopes of a key the caller creates: those it asks for, each of which the caller must hold
 * (exactly the caller's when it asks for none). A key never grants more than its creator holds, so
 * a restricted key cannot climb to a wider one by minting it.
 */
export function scopesForNewKey(caller: Caller, requested: readonly string[] | undefined): string[] {
  const held = heldScopes(caller);
  if (requested === undefined) return [...held];
  const beyond = requested.filter((scope) => !held.includes(scope));
  if (beyond.length > 0) {
    throw new AppError(
      'SCOPE_NOT_GRANTED',
      `A new key can only have scopes the credential creating it holds; this one does not hold ${beyond.join(', ')} (it holds ${held.join(', ') || 'no scope'}).`,
      { body: { scopes_not_held: beyond } },
    );
  }
  return [...requested];
}
