import type { DownloadLink } from '../../../schemas/invoice-reading.js';
import type { SandboxSignatureDownloadInput } from '../../../schemas/signatures.js';
import { defineQuery } from '../../shared/operation.js';
import { signatureDownloadLink } from '../signature-files.js';

const KIND = { original: 'original', signed_pdf: 'signed', proof: 'proof' } as const;

export const getSandboxSignatureDownloadLink = defineQuery<SandboxSignatureDownloadInput, DownloadLink>({
  name: 'download_sandbox_signed',
  summary:
    'A link to one file of a sandbox signature request, valid 15 minutes without credentials: `signed_pdf` (the signed PDF) or `proof` (the proof file), 409 SIGNATURE_NOT_COMPLETED until every signer has signed; `original` (the document sent) at any time.',
  input: 'SandboxSignatureDownloadInput',
  output: 'DownloadLink',
  callers: ['user', 'tenant'],
  scope: 'signatures',
  async run(input, ctx) {
    return signatureDownloadLink(ctx, input.id, KIND[input.type]);
  },
});
