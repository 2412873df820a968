import type { DownloadLink } from '../../../schemas/invoice-reading.js';
import type { SignatureDownloadInput } from '../../../schemas/signatures.js';
import { defineQuery } from '../../shared/operation.js';
import { signatureDownloadLink } from '../signature-files.js';

const KIND = { original: 'original', signed: 'signed', audit_trail: 'proof' } as const;

export const getSignatureDownloadLink = defineQuery<SignatureDownloadInput, DownloadLink>({
  name: 'download_signed',
  summary:
    'A link to one file of a signature request, valid 15 minutes without credentials: `original` (the document sent), `signed` (the signed PDF) or `audit_trail` (the proof file). The last two answer 409 SIGNATURE_NOT_COMPLETED until every signer has signed.',
  input: 'SignatureDownloadInput',
  output: 'DownloadLink',
  callers: ['user', 'tenant'],
  scope: 'signatures',
  async run(input, ctx) {
    return signatureDownloadLink(ctx, input.id, KIND[input.type]);
  },
});
