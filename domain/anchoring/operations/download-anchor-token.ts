import type { FiscalAnchorFileInput } from '../../../schemas/fiscal-anchors.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { notYet, visibleAnchor } from '../visible-anchor.js';

export const downloadAnchorToken = defineQuery<FiscalAnchorFileInput, FileOutput>({
  name: 'download_fiscal_anchor_token',
  summary:
    'The RFC 3161 time-stamp token of an anchor, DER (CMS SignedData), to check with `openssl ts -verify -digest <data_hash> -in token.tst -token_in -CAfile ca.pem`. 409 while the anchor is pending.',
  input: 'FiscalAnchorFileInput',
  output: 'FiscalAnchorFile',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const anchor = await visibleAnchor(ctx, input.id);
    if (!anchor.token) throw notYet(anchor);
    return {
      content: Buffer.from(anchor.token, 'base64'),
      contentType: 'application/octet-stream',
      filename: `anchor-${anchor.id}.tst`,
    };
  },
});
