import type { SigningTokenInput } from '../../../schemas/signing-page.js';
import { AppError } from '../../shared/app-error.js';
import { ANY_CALLER } from '../../shared/caller.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { findSignatureDocument } from '../signature-store.js';
import { openServedSession } from '../signing-steps.js';

export const getSigningDocument = defineQuery<SigningTokenInput, FileOutput>({
  name: 'get_signing_document',
  summary: 'The document to sign, as uploaded, shown on the signing page: 404 for an unknown token.',
  input: 'SigningTokenInput',
  output: 'SigningDocument',
  callers: ANY_CALLER,
  async run(input, ctx) {
    const { request: r } = await openServedSession(ctx, input.token);
    const document = await findSignatureDocument(ctx.tx, r.id, 'original');
    if (!document) throw new AppError('FILE_NOT_FOUND', 'This document is no longer available.');
    return { content: document.content, contentType: 'application/pdf', filename: document.filename };
  },
});
