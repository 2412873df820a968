import type { RefuseSigningInput, SigningStep } from '../../../schemas/signing-page.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { refuseAsSigner } from '../signing-steps.js';

export const refuseSignature = defineCommand<RefuseSigningInput, SigningStep>({
  name: 'refuse_signature',
  summary: 'Refuse to sign, with a reason, as a signer who verified a code: the request becomes refused.',
  input: 'RefuseSigningInput',
  output: 'SigningStep',
  callers: ANY_CALLER,
  async run(input, ctx) {
    return refuseAsSigner(ctx, input.token, input.reason);
  },
});
