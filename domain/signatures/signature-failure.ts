import { refundSignature } from '../billing/index.js';
import type { OperationContext } from '../shared/operation.js';
import { eventData } from './issue-signature.js';
import { auditSignature } from './signature-audit.js';
import type { SignatureRequestRow } from './signature-row.js';

/** The longest `failure_reason` kept (the column's check). */
const REASON_MAX = 1000;

/**
 * Ends a locked pending request `failed` (docs/decisions/0092): the signature provider refused it,
 * could not be reached for SIGNATURE_SUBMIT_MAX_ATTEMPTS handovers, or reported ERROR. In the
 * caller's transaction: the status with its reason, the refund of what it was charged (once, a
 * `signature_refunded` credit), the audit entry and the `signature.failed` event; a request the
 * provider holds is deleted there (its signing links stop). Returns the failed row, or null when the
 * request was no longer pending (nothing done).
 */
export async function failSignatureRequest(
  ctx: OperationContext,
  r: SignatureRequestRow,
  signerCount: number,
  reason: string,
  details: Record<string, unknown> = {},
): Promise<SignatureRequestRow | null> {
  const now = ctx.clock.now();
  const failureReason = reason.slice(0, REASON_MAX);
  const [failed] = await ctx
    .tx('signature_requests')
    .where({ id: r.id, status: 'pending' })
    .update({ status: 'failed', failure_reason: failureReason, failed_at: now, updated_at: now })
    .returning<SignatureRequestRow[]>('*');
  if (!failed) return null;
  const refunded = await refundSignature(ctx, {
    tenantId: r.tenant_id,
    amount: r.amount_charged,
    referenceType: 'signature',
    referenceId: r.id,
    reason: `Signature request ${r.id} failed: ${failureReason}`.slice(0, REASON_MAX),
    now,
  });
  await auditSignature(ctx, r, 'signature.failed', {
    ...details,
    reason: failureReason,
    refunded: refunded.toFixed(2),
  });
  await ctx.events.emit(
    'signature.failed',
    { ...eventData(failed, signerCount), failure_reason: failureReason, amount_refunded: refunded.toNumber() },
    { tenantId: r.tenant_id, environment: r.environment },
  );
  if (r.provider === 'openapi' && r.provider_id) {
    await ctx.jobs.send('delete-provider-signature', { tenantId: r.tenant_id, signatureId: r.id });
  }
  return failed;
}
