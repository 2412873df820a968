import { actorOf, appendAuditEntry } from '../audit/index.js';
import type { OperationContext } from '../shared/operation.js';
import type { SignatureRequestRow } from './signature-row.js';

/** A signer acting through their signing link (the signing page). */
export const SIGNER_ACTOR = { kind: 'signer', credential_type: 'signing_link', credential_id: null, user_id: null };

/**
 * Appends an entry to a signature request's audit trail, in the operation's transaction: by default
 * the caller is the actor (its credential, or the system for workers), with the caller's address.
 */
export async function auditSignature(
  ctx: OperationContext,
  r: Pick<SignatureRequestRow, 'id' | 'tenant_id' | 'environment'>,
  action: string,
  details: Record<string, unknown>,
  actor: Record<string, string | null> = actorOf(ctx.caller),
): Promise<void> {
  await appendAuditEntry(ctx.tx, {
    tenantId: r.tenant_id,
    environment: r.environment,
    entityType: 'signature',
    entityId: r.id,
    action,
    details,
    actorIp: ctx.caller.ip ?? null,
    actor,
    now: ctx.clock.now(),
  });
}
