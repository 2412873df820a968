import type { SigningCodeInput, SigningStep } from '../../../schemas/signing-page.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { verifySigningCode as verify } from '../signing-steps.js';

export const verifySigningCode = defineCommand<SigningCodeInput, SigningStep>({
  name: 'verify_signing_code',
  summary:
    'Check the signer’s one-time code: a right one lets the signer sign or refuse for 30 minutes; the fifth wrong one locks the code (ask for a new one).',
  input: 'SigningCodeInput',
  output: 'SigningStep',
  callers: ANY_CALLER,
  async run(input, ctx) {
    return verify(ctx, input.token, input.code);
  },
});
