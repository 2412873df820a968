import type { ProviderSignatureRef, SignatureProviderOutcome } from '../../../schemas/signature-provider-jobs.js';
import type { SignatureIdInput } from '../../../schemas/signatures.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';

export type { SignatureProviderOutcome };

export const getProviderSignatureRef = defineQuery<SignatureIdInput, ProviderSignatureRef>({
  name: 'get_provider_signature_ref',
  summary: "A request's status, its provider and its id there (the provider jobs).",
  input: 'SignatureIdInput',
  output: 'ProviderSignatureRef',
  callers: ['system'],
  async run(input, ctx) {
    const r = await ctx
      .tx('signature_requests')
      .where({ id: input.id, tenant_id: ctx.caller.tenantId ?? '' })
      .first<ProviderSignatureRef | undefined>('status', 'provider', 'provider_id', 'provider_state');
    if (!r) throw new AppError('NOT_FOUND', `No signature request ${input.id}.`);
    return r;
  },
});
