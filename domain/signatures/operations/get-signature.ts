import type { SignatureIdInput } from '../../../schemas/signatures.js';
import { defineQuery } from '../../shared/operation.js';
import { signatureReaderOf } from '../signature-owner.js';
import { findReadableSignature } from '../signature-store.js';
import { type SignatureView, toSignatureView } from '../signature-view.js';

export const getSignature = defineQuery<SignatureIdInput, SignatureView>({
  name: 'get_signature',
  summary:
    'Read one signature request with its signers and their status. An id of another account or of the other environment answers 404.',
  input: 'SignatureIdInput',
  output: 'Signature',
  callers: ['user', 'tenant'],
  scope: 'signatures',
  async run(input, ctx) {
    return toSignatureView(
      ctx.deps.config,
      await findReadableSignature(ctx.tx, signatureReaderOf(ctx.caller), input.id),
    );
  },
});
