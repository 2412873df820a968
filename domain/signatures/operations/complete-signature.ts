import type { SignatureIdInput } from '../../../schemas/signatures.js';
import { defineCommand } from '../../shared/operation.js';
import { type SignatureView, toSignatureView } from '../signature-view.js';
import { completeWhenAllSigned } from '../signing-steps.js';
import { openSigningRequest } from '../signing-store.js';

export const completeSignature = defineCommand<SignatureIdInput, SignatureView>({
  name: 'complete_signature',
  summary:
    'Make the signed PDF and the proof file of a pending request whose signers have all signed, and complete it (the complete-signature job). Does nothing to a request in any other state.',
  input: 'SignatureIdInput',
  output: 'Signature',
  callers: ['system'],
  async run(input, ctx) {
    const { request, signers } = await openSigningRequest(ctx.tx, ctx.caller.tenantId ?? '', input.id);
    const completed = await completeWhenAllSigned(ctx, request, signers);
    return toSignatureView(ctx.deps.config, { request: completed ?? request, signers });
  },
});
