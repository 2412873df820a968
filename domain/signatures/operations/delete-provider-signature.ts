import type { SignatureProviderOutcome } from '../../../schemas/signature-provider-jobs.js';
import type { SignatureIdInput } from '../../../schemas/signatures.js';
import { execute } from '../../shared/execute.js';
import { defineCommand } from '../../shared/operation.js';
import { getProviderSignatureRef } from './get-provider-signature-ref.js';

export const deleteProviderSignature = defineCommand<SignatureIdInput, SignatureProviderOutcome>({
  name: 'delete_provider_signature',
  summary:
    'Delete a cancelled, expired or failed request at Openapi (the delete-provider-signature job): its signing links stop working there too.',
  input: 'SignatureIdInput',
  output: 'SignatureProviderOutcome',
  callers: ['system'],
  transactional: false,
  async run(input, ctx) {
    const ref = await execute(getProviderSignatureRef, input, ctx.caller, ctx.deps);
    if (ref.provider !== 'openapi' || !ref.provider_id || !['cancelled', 'expired', 'failed'].includes(ref.status)) {
      return { signature_id: input.id, status: ref.status, outcome: 'nothing to delete' };
    }
    await ctx.deps.signatureProvider.remove(ref.provider_id);
    return { signature_id: input.id, status: ref.status, outcome: 'deleted at the provider' };
  },
});
