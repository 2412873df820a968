import type { SignatureHandover } from '../../../schemas/signature-provider-jobs.js';
import type { SignatureIdInput } from '../../../schemas/signatures.js';
import { defineCommand } from '../../shared/operation.js';
import { handoverOf } from '../provider/provider-steps.js';
import { openSigningRequest } from '../signing-store.js';

export const claimSignatureHandover = defineCommand<SignatureIdInput, SignatureHandover>({
  name: 'claim_signature_handover',
  summary:
    'Start handing a production request over to Openapi: notes the attempt (committed before the call, so a lost answer is looked up rather than the request made twice) and gives the request as the provider takes it.',
  input: 'SignatureIdInput',
  output: 'SignatureHandover',
  callers: ['system'],
  async run(input, ctx) {
    const { request: r, signers } = await openSigningRequest(ctx.tx, ctx.caller.tenantId ?? '', input.id);
    const previous = r.provider_attempted_at?.toISOString() ?? null;
    if (r.status !== 'pending' || r.provider !== 'openapi' || r.provider_id) {
      return { ready: false, status: r.status, attempted_at: previous };
    }
    const request = await handoverOf(ctx.tx, ctx.deps.config, r, signers);
    await ctx.tx('signature_requests').where({ id: r.id }).update({ provider_attempted_at: ctx.clock.now() });
    return { ready: true, status: r.status, attempted_at: previous, request };
  },
});
