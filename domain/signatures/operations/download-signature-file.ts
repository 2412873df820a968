import type { SignatureFileInput } from '../../../schemas/signatures.js';
import { readLinkedFile } from '../../auth/index.js';
import { ANY_CALLER } from '../../shared/caller.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { openSignatureLink } from '../signature-files.js';
import { findSignatureDocument } from '../signature-store.js';

export const downloadSignatureFile = defineQuery<SignatureFileInput, FileOutput>({
  name: 'download_signature_file',
  summary:
    'The signature file behind a download link, served without credentials while the link is valid (15 minutes): 410 DOWNLOAD_LINK_EXPIRED after, 403 DOWNLOAD_LINK_INVALID for an altered link or once the credential that asked for it is revoked.',
  input: 'SignatureFileInput',
  output: 'SignatureFile',
  callers: ANY_CALLER,
  async run(input, ctx) {
    const claims = openSignatureLink(ctx, input.token);
    const document = await readLinkedFile(ctx.tx, claims, ctx.clock.now(), () =>
      findSignatureDocument(ctx.tx, claims.signature_id, claims.kind),
    );
    const filename = claims.kind === 'original' ? document.filename : `${claims.kind}-${document.filename}`;
    return { content: document.content, contentType: 'application/pdf', filename };
  },
});
