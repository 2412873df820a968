import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { eventData } from './issue-signature.js';
import { auditSignature } from './signature-audit.js';
import { signatureReaderOf } from './signature-owner.js';
import type { SignatureRequestRow } from './signature-row.js';
import { closeSignatureRequest, findReadableSignature, markReminded } from './signature-store.js';
import { type SignatureView, toSignatureView } from './signature-view.js';

/** One reminder per hour per request (spec "Limits"). */
export const REMINDER_INTERVAL_SECONDS = 3600;

/**
 * How a refusal is answered: the production routes say 400 (ALREADY_COMPLETED, CANNOT_REMIND), the
 * sandbox routes 422 for a request no longer pending (spec "Sandbox").
 */
export type Surface = 'production' | 'sandbox';

/** The request's state in words: a failed one says why and that it was refunded. */
const stateOf = (r: SignatureRequestRow) =>
  r.status === 'failed'
    ? `failed (${r.failure_reason ?? 'the signature provider could not take it'}; its charge was refunded)`
    : r.status;

const notPending = (r: SignatureRequestRow, what: string) =>
  new AppError('SIGNATURE_NOT_PENDING', `Signature request ${r.id} is ${stateOf(r)}: it cannot be ${what}.`, {
    body: { status: r.status },
  });

/** Cancels a pending request: its signing links stop working. */
export async function cancelSignature(ctx: OperationContext, id: string, surface: Surface): Promise<SignatureView> {
  const { request: r, signers } = await findReadableSignature(ctx.tx, signatureReaderOf(ctx.caller), id, {
    forUpdate: true,
  });
  if (r.status !== 'pending') {
    if (surface === 'sandbox') throw notPending(r, 'cancelled');
    if (r.status === 'completed') {
      throw new AppError('ALREADY_COMPLETED', `Signature request ${r.id} is completed: it cannot be cancelled.`, {
        body: { status: r.status },
      });
    }
    throw new AppError(
      'INVALID_STATE',
      `Signature request ${r.id} is ${stateOf(r)}: only a pending request can be cancelled.`,
      { body: { status: r.status, ...(r.status === 'failed' ? { failure_reason: r.failure_reason } : {}) } },
    );
  }
  const now = ctx.clock.now();
  const closed = await closeSignatureRequest(ctx.tx, r.id, 'cancelled', now);
  await auditSignature(ctx, r, 'signature.cancelled', { previous_status: r.status });
  await ctx.events.emit('signature.cancelled', eventData(closed, signers.length), {
    tenantId: r.tenant_id,
    environment: r.environment,
  });
  // Its signing links stop working at the provider too (a handover in flight deletes it when recorded).
  if (r.provider === 'openapi' && r.provider_id) {
    await ctx.jobs.send('delete-provider-signature', { tenantId: r.tenant_id, signatureId: r.id });
  }
  return toSignatureView(ctx.deps.config, { request: closed, signers });
}

/**
 * Reminds the pending signers of a pending request, at most once an hour: the e-mails go out from
 * the `send-signature-reminders` job (production only: the sandbox sends nothing).
 */
export async function remindSignature(
  ctx: OperationContext,
  id: string,
  surface: Surface,
): Promise<{ message: string; signers_reminded: number }> {
  const { request: r, signers } = await findReadableSignature(ctx.tx, signatureReaderOf(ctx.caller), id, {
    forUpdate: true,
  });
  const now = ctx.clock.now();
  if (r.status !== 'pending' || r.expires_at.getTime() <= now.getTime()) {
    if (surface === 'sandbox') throw notPending(r, 'reminded');
    throw new AppError(
      'CANNOT_REMIND',
      `Signature request ${r.id} is ${r.status === 'pending' ? 'past its deadline' : stateOf(r)}: only a pending request can be reminded.`,
      { body: { status: r.status, ...(r.status === 'failed' ? { failure_reason: r.failure_reason } : {}) } },
    );
  }
  const pending = signers.filter((s) => s.status === 'pending');
  if (pending.length === 0) {
    throw new AppError('NO_PENDING_SIGNERS', `Every signer of signature request ${r.id} has already answered.`);
  }
  if (r.last_reminded_at) {
    const wait = Math.ceil((r.last_reminded_at.getTime() + REMINDER_INTERVAL_SECONDS * 1000 - now.getTime()) / 1000);
    if (wait > 0) {
      throw new AppError(
        'CANNOT_REMIND',
        `A reminder was sent at ${r.last_reminded_at.toISOString()}: one reminder per hour. Retry in ${wait} seconds.`,
        { body: { retry_after: wait, last_reminded_at: r.last_reminded_at.toISOString() } },
      );
    }
  }
  await markReminded(ctx.tx, r.id, now);
  await auditSignature(ctx, r, 'signature.reminded', {
    signers_reminded: pending.length,
    signer_ids: pending.map((s) => s.id),
  });
  if (r.environment === 'production') {
    await ctx.jobs.send('send-signature-reminders', { tenantId: r.tenant_id, signatureId: r.id });
  }
  return {
    message: `Reminder sent to ${pending.length} pending signer${pending.length > 1 ? 's' : ''}.`,
    signers_reminded: pending.length,
  };
}
