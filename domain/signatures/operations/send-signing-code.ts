import type { SigningStep, SigningTokenInput } from '../../../schemas/signing-page.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { sendSigningCode as send } from '../signing-steps.js';

export const sendSigningCode = defineCommand<SigningTokenInput, SigningStep>({
  name: 'send_signing_code',
  summary:
    'Send the signer a one-time code (sandbox: 000000, nothing sent): 6 digits, valid 10 minutes, by e-mail or SMS as its auth_method says. 422 SIGNATURE_NOT_PENDING once the request or the signer is no longer pending.',
  input: 'SigningTokenInput',
  output: 'SigningStep',
  callers: ANY_CALLER,
  async run(input, ctx) {
    return send(ctx, input.token);
  },
});
