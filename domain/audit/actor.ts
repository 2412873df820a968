import type { Caller } from '../shared/caller.js';

/** Who did it, for audit entries and `created_by`: the kind and the credential's row id, never a secret. */
export const actorOf = (caller: Caller): Record<string, string | null> => ({
  kind: caller.kind,
  credential_type: caller.credential?.type ?? null,
  credential_id: caller.credential?.id ?? null,
  user_id: caller.userId ?? null,
});
