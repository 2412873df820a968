import type { FiscalAttestationInput } from '../../../schemas/fiscal-attestations.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineCommand } from '../../shared/operation.js';
import { assertAttestableYear, buildAttestation } from '../attestation.js';
import { renderAttestationPdf } from '../attestation-pdf.js';
import { oneChain, reportScope } from '../report-scope.js';

export const downloadFiscalAttestation = defineCommand<FiscalAttestationInput, FileOutput>({
  name: 'download_fiscal_attestation',
  summary:
    'The yearly attestation individuelle as a PDF (French): the same declaration and facts as GET /v1/tenant/fiscal/attestation/{year}.',
  input: 'FiscalAttestationInput',
  output: 'FiscalDocumentPdf',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    assertAttestableYear(input.year, ctx.clock.now());
    const attestation = await buildAttestation(ctx, oneChain(await reportScope(ctx, input)), input.year);
    const who = attestation.view.user.siren ?? attestation.view.user.id;
    return {
      content: renderAttestationPdf(attestation),
      contentType: 'application/pdf',
      filename: `attestation-individuelle-${input.year}-${who}.pdf`,
    };
  },
});
