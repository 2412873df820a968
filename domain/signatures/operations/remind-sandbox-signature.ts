import type { SignatureIdInput, SignatureReminder } from '../../../schemas/signatures.js';
import { defineCommand } from '../../shared/operation.js';
import { remindSignature } from '../signature-actions.js';

export const remindSandboxSignature = defineCommand<SignatureIdInput, SignatureReminder>({
  name: 'send_sandbox_reminder',
  summary:
    'Remind the pending signers of a pending sandbox signature request (nothing is sent in sandbox), at most once an hour. 422 SIGNATURE_NOT_PENDING when it is completed, cancelled, refused, expired or failed; 400 CANNOT_REMIND within the hour; 400 NO_PENDING_SIGNERS.',
  input: 'SignatureIdInput',
  output: 'SignatureReminder',
  callers: ['user', 'tenant'],
  scope: 'signatures',
  async run(input, ctx) {
    return remindSignature(ctx, input.id, 'sandbox');
  },
});
