import type { SignatureIdInput, SignatureReminder } from '../../../schemas/signatures.js';
import { defineCommand } from '../../shared/operation.js';
import { remindSignature as remind } from '../signature-actions.js';

export const remindSignature = defineCommand<SignatureIdInput, SignatureReminder>({
  name: 'send_reminder',
  summary:
    'Remind the pending signers of a pending signature request (their OTP channel), at most once an hour per request. 400 CANNOT_REMIND when the request is not pending or was reminded less than an hour ago (retry_after in seconds); 400 NO_PENDING_SIGNERS when every signer has answered.',
  input: 'SignatureIdInput',
  output: 'SignatureReminder',
  callers: ['user', 'tenant'],
  scope: 'signatures',
  async run(input, ctx) {
    return remind(ctx, input.id, 'production');
  },
});
