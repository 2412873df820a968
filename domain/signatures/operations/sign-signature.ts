import type { SignDocumentInput, SigningStep } from '../../../schemas/signing-page.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { defineCommand } from '../../shared/operation.js';
import { signAsSigner } from '../signing-steps.js';

export const signSignature = defineCommand<SignDocumentInput, SigningStep>({
  name: 'sign_signature',
  summary:
    'Sign as a signer who verified a code, with a typed name or a drawing as signature_mode allows. The last signer completes the request: its signed PDF and proof file are made.',
  input: 'SignDocumentInput',
  output: 'SigningStep',
  callers: ANY_CALLER,
  async run(input, ctx) {
    return signAsSigner(ctx, input.token, { typed_name: input.typed_name, drawing: input.drawing });
  },
});
