import type { ApplyProviderStateInput, SignatureProviderOutcome } from '../../../schemas/signature-provider-jobs.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { applyProviderState } from '../provider/provider-steps.js';
import { openSigningRequest } from '../signing-store.js';

export const applyProviderSignatureState = defineCommand<ApplyProviderStateInput, SignatureProviderOutcome>({
  name: 'apply_provider_signature_state',
  summary:
    "Apply a request's state read from Openapi, once: signers signed, a refusal, or completion with the signed PDF and the provider's audit trail as the proof file.",
  input: 'ApplyProviderStateInput',
  output: 'SignatureProviderOutcome',
  callers: ['system'],
  async run(input, ctx) {
    const { request: r, signers } = await openSigningRequest(ctx.tx, ctx.caller.tenantId ?? '', input.id);
    if (r.provider !== 'openapi' || r.provider_id !== input.provider.id) {
      throw new AppError('NOT_FOUND', `Signature request ${r.id} is not Openapi request ${input.provider.id}.`);
    }
    const files =
      input.signed_pdf && input.proof_pdf
        ? { signed: Buffer.from(input.signed_pdf, 'base64'), proof: Buffer.from(input.proof_pdf, 'base64') }
        : null;
    const outcome = await applyProviderState(ctx, r, signers, input.provider, files);
    const after = await ctx.tx('signature_requests').where({ id: r.id }).first<{ status: string }>('status');
    return { signature_id: r.id, status: after?.status ?? r.status, outcome };
  },
});
