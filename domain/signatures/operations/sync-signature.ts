import type { SignatureProviderOutcome } from '../../../schemas/signature-provider-jobs.js';
import type { SignatureIdInput } from '../../../schemas/signatures.js';
import { execute } from '../../shared/execute.js';
import { defineCommand } from '../../shared/operation.js';
import { stateOf } from '../provider/provider-steps.js';
import { applyProviderSignatureState } from './apply-provider-signature-state.js';
import { getProviderSignatureRef } from './get-provider-signature-ref.js';

export const syncSignature = defineCommand<SignatureIdInput, SignatureProviderOutcome>({
  name: 'sync_signature',
  summary:
    "Read a request's state at Openapi and apply it (the sync-signature job, queued by a callback or the poll): the detail, and once DONE the signed PDF and the audit trail, are fetched outside any transaction, then applied in one.",
  input: 'SignatureIdInput',
  output: 'SignatureProviderOutcome',
  callers: ['system'],
  transactional: false,
  async run(input, ctx) {
    const ref = await execute(getProviderSignatureRef, input, ctx.caller, ctx.deps);
    if (ref.provider !== 'openapi' || !ref.provider_id || ref.status !== 'pending') {
      return { signature_id: input.id, status: ref.status, outcome: 'nothing to sync' };
    }
    const provider = ctx.deps.signatureProvider;
    const detail = await provider.detail(ref.provider_id);
    const done = detail.state === 'DONE' && detail.signers.every((s) => s.state === 'signed');
    const files = done
      ? {
          signed_pdf: (await provider.signedDocument(detail.id)).toString('base64'),
          proof_pdf: (await provider.auditPdf(detail.id)).toString('base64'),
        }
      : {};
    return execute(
      applyProviderSignatureState,
      { id: input.id, provider: stateOf(detail), ...files },
      ctx.caller,
      ctx.deps,
    );
  },
});
