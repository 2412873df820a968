import type { SignatureIdInput } from '../../../schemas/signatures.js';
import { defineCommand } from '../../shared/operation.js';
import { cancelSignature as cancel } from '../signature-actions.js';
import type { SignatureView } from '../signature-view.js';

export const cancelSignature = defineCommand<SignatureIdInput, SignatureView>({
  name: 'cancel_signature',
  summary:
    'Cancel a pending signature request: its signing links stop working. 400 ALREADY_COMPLETED for a completed request; 409 INVALID_STATE for one already refused, expired, cancelled or failed (the message gives its failure_reason).',
  input: 'SignatureIdInput',
  output: 'Signature',
  callers: ['user', 'tenant'],
  scope: 'signatures',
  async run(input, ctx) {
    return cancel(ctx, input.id, 'production');
  },
});
