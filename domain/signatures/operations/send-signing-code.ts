import type { SigningStep, SigningTokenInput } from '../../../schemas/signing-page.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { requestSigningCode } from '../signing-steps.js';

export const sendSigningCode = defineCommand<SigningTokenInput, SigningStep>({
  name: 'send_signing_code',
  summary:
    'Ask for a one-time code (sandbox: 000000, nothing sent): 6 digits, valid 10 minutes, sent by a worker by e-mail or SMS as the signer’s auth_method says. 422 SIGNATURE_NOT_PENDING once the request or the signer is no longer pending.',
  input: 'SigningTokenInput',
  output: 'SigningStep',
  callers: ANY_CALLER,
  async run(input, ctx) {
    return requestSigningCode(ctx, input.token);
  },
});
