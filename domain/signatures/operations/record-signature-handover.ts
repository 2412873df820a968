import type {
  RecordSignatureHandoverInput,
  SignatureProviderOutcome,
} from '../../../schemas/signature-provider-jobs.js';
import { defineCommand } from '../../shared/operation.js';
import { recordHandover, recordHandoverRefusal } from '../provider/provider-steps.js';
import { openSigningRequest } from '../signing-store.js';

export const recordSignatureHandover = defineCommand<RecordSignatureHandoverInput, SignatureProviderOutcome>({
  name: 'record_signature_handover',
  summary:
    "Record Openapi's answer to a handover: the provider's request id, state and signing links, or its refusal. A request cancelled meanwhile is deleted at the provider.",
  input: 'RecordSignatureHandoverInput',
  output: 'SignatureProviderOutcome',
  callers: ['system'],
  async run(input, ctx) {
    const { request: r, signers } = await openSigningRequest(ctx.tx, ctx.caller.tenantId ?? '', input.id);
    if (r.provider_id) return { signature_id: r.id, status: r.status, outcome: 'already recorded' };
    if (!input.provider) {
      await recordHandoverRefusal(ctx, r, input.refusal ?? 'refused');
      return { signature_id: r.id, status: r.status, outcome: 'refused by the provider' };
    }
    await recordHandover(ctx, r, signers, input.provider);
    if (r.status !== 'pending') {
      await ctx.jobs.send('delete-provider-signature', { tenantId: r.tenant_id, signatureId: r.id });
      return { signature_id: r.id, status: r.status, outcome: 'submitted, then deleted (no longer pending)' };
    }
    return { signature_id: r.id, status: r.status, outcome: 'submitted' };
  },
});
