import type { FiscalAnchorFileInput } from '../../../schemas/fiscal-anchors.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { notYet, visibleAnchor } from '../visible-anchor.js';

export const downloadAnchorCaCertificate = defineQuery<FiscalAnchorFileInput, FileOutput>({
  name: 'download_fiscal_anchor_ca_certificate',
  summary:
    'The CA certificate (PEM) an anchor’s token was verified against: the `-CAfile` of `openssl ts -verify`. 409 until the anchor is anchored.',
  input: 'FiscalAnchorFileInput',
  output: 'FiscalAnchorFile',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const anchor = await visibleAnchor(ctx, input.id);
    if (anchor.status !== 'anchored' || !anchor.ca_certificate) throw notYet(anchor);
    return {
      content: Buffer.from(anchor.ca_certificate, 'utf8'),
      contentType: 'application/x-pem-file',
      filename: `anchor-${anchor.id}-ca.pem`,
    };
  },
});
