import type {
  RecordSignatureHandoverInput,
  SignatureProviderOutcome,
} from '../../../schemas/signature-provider-jobs.js';
import { defineCommand } from '../../shared/operation.js';
import { recordHandover } from '../provider/provider-steps.js';
import { failSignatureRequest } from '../signature-failure.js';
import { openSigningRequest } from '../signing-store.js';

/**
 * Records what a handover gave (docs/decisions/0092): the provider's request; `failed` (and
 * refunded) with the provider's refusal; or, the provider unreachable, one more attempt counted on
 * the row, `failed` at SIGNATURE_SUBMIT_MAX_ATTEMPTS (12 by default: about 5 h of the job's
 * backoff). Still `pending` afterwards means the job retries.
 */
export const recordSignatureHandover = defineCommand<RecordSignatureHandoverInput, SignatureProviderOutcome>({
  name: 'record_signature_handover',
  summary:
    "Record Openapi's answer to a handover: the provider's request id, state and signing links; its refusal, or an unreachable provider after the last attempt (the request fails and is refunded). A request cancelled meanwhile is deleted at the provider.",
  input: 'RecordSignatureHandoverInput',
  output: 'SignatureProviderOutcome',
  callers: ['system'],
  async run(input, ctx) {
    const { request: r, signers } = await openSigningRequest(ctx.tx, ctx.caller.tenantId ?? '', input.id);
    if (r.provider_id) return { signature_id: r.id, status: r.status, outcome: 'already recorded' };
    if (input.provider) {
      await recordHandover(ctx, r, signers, input.provider);
      if (r.status !== 'pending') {
        await ctx.jobs.send('delete-provider-signature', { tenantId: r.tenant_id, signatureId: r.id });
        return { signature_id: r.id, status: r.status, outcome: 'submitted, then deleted (no longer pending)' };
      }
      return { signature_id: r.id, status: r.status, outcome: 'submitted' };
    }
    if (r.status !== 'pending') return { signature_id: r.id, status: r.status, outcome: 'no longer pending' };
    if (input.unavailable !== undefined) {
      const attempts = r.provider_attempts + 1;
      const max = ctx.deps.config.signatureSubmitMaxAttempts;
      await ctx
        .tx('signature_requests')
        .where({ id: r.id })
        .update({ provider_attempts: attempts, provider_error: input.unavailable, updated_at: ctx.clock.now() });
      if (attempts < max) {
        return {
          signature_id: r.id,
          status: r.status,
          outcome: `provider unavailable (attempt ${attempts} of ${max})`,
        };
      }
      const reason = `The signature provider could not be reached after ${attempts} attempts: ${input.unavailable}`;
      await failSignatureRequest(ctx, r, signers.length, reason, { provider: 'openapi', attempts });
      return { signature_id: r.id, status: 'failed', outcome: `failed after ${attempts} attempts` };
    }
    const refusal = input.refusal ?? 'no reason given';
    await ctx
      .tx('signature_requests')
      .where({ id: r.id })
      .update({ provider_error: refusal, updated_at: ctx.clock.now() });
    await failSignatureRequest(ctx, r, signers.length, `The signature provider refused the request: ${refusal}`, {
      provider: 'openapi',
    });
    return { signature_id: r.id, status: 'failed', outcome: 'refused by the provider' };
  },
});
