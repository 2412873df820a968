import type { SignatureIdInput } from '../../../schemas/signatures.js';
import { defineCommand } from '../../shared/operation.js';
import { cancelSignature } from '../signature-actions.js';
import type { SignatureView } from '../signature-view.js';

export const cancelSandboxSignature = defineCommand<SignatureIdInput, SignatureView>({
  name: 'cancel_sandbox_signature',
  summary:
    'Cancel a pending sandbox signature request. 422 SIGNATURE_NOT_PENDING when it is already cancelled, completed, refused, expired or failed.',
  input: 'SignatureIdInput',
  output: 'Signature',
  callers: ['user', 'tenant'],
  scope: 'signatures',
  async run(input, ctx) {
    return cancelSignature(ctx, input.id, 'sandbox');
  },
});
