import type { CreateSignatureInput } from '../../../schemas/signatures.js';
import { defineCommand } from '../../shared/operation.js';
import { issueSignature } from '../issue-signature.js';
import { type PreparedSignature, prepareSignature } from '../signature-checks.js';
import type { SignatureView } from '../signature-view.js';

export const createSignature = defineCommand<CreateSignatureInput, SignatureView>({
  name: 'create_signature',
  summary:
    "Create a simple electronic signature request (EU-SES) in the key's environment: a PDF of at most 20 MB (base64, checked by content), 1 to 10 signers with the contact their OTP channel needs, optional positions on its pages, branding and deadline (30 days by default, at most a year). Charged 1.20 EUR in production (402 INSUFFICIENT_BALANCE when short), free in sandbox. Each signer gets a signing_url.",
  input: 'CreateSignatureInput',
  output: 'Signature',
  callers: ['user', 'tenant'],
  scope: 'signatures',
  // Decoding and reading the PDF, and resolving the logo's host, hold no transaction open; the
  // PDF is read in a worker thread under a time budget, never on the event loop serving requests.
  prepare: (input, deps, log) => prepareSignature(input, deps, log),
  async run(input, ctx) {
    return issueSignature(ctx, input, ctx.prepared as PreparedSignature);
  },
});
