import type { IscaDocumentInput } from '../../../schemas/fiscal-attestations.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineCommand } from '../../shared/operation.js';
import { buildAttestation } from '../attestation.js';
import { renderAttestationPdf } from '../attestation-pdf.js';
import { oneChain, reportScope } from '../report-scope.js';

export const downloadIscaSelfAttestation = defineCommand<IscaDocumentInput, FileOutput>({
  name: 'download_isca_self_attestation',
  summary:
    "The ISCA self-attestation (inaltérabilité, sécurisation, conservation, archivage) of a fiscal chain as a PDF: the publisher's technical self-declaration following the administration's model, not a certificate, with the whole chain's facts (not bound to a year).",
  input: 'IscaDocumentInput',
  output: 'FiscalDocumentPdf',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const attestation = await buildAttestation(ctx, oneChain(await reportScope(ctx, input)), null);
    const who = attestation.view.user.siren ?? attestation.view.user.id;
    return {
      content: renderAttestationPdf(attestation),
      contentType: 'application/pdf',
      filename: `isca-auto-attestation-${who}.pdf`,
    };
  },
});
