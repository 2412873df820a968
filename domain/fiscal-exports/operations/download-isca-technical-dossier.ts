import type { IscaDocumentInput } from '../../../schemas/fiscal-attestations.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { technicalDossierPdf } from '../isca-documents.js';
import { oneChain, reportScope } from '../report-scope.js';

export const downloadIscaTechnicalDossier = defineQuery<IscaDocumentInput, FileOutput>({
  name: 'download_isca_technical_dossier',
  summary:
    'The ISCA technical dossier as a PDF (French): how the software keeps the fiscal data unalterable, secured, conserved and archived (SHA-256 hash chain over RFC 8785 canonical JSON, database triggers, closings, RFC 3161 time-stamps, row-level security, exports), with this deployment’s settings.',
  input: 'IscaDocumentInput',
  output: 'FiscalDocumentPdf',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    return {
      content: await technicalDossierPdf(ctx, oneChain(await reportScope(ctx, input))),
      contentType: 'application/pdf',
      filename: 'isca-dossier-technique.pdf',
    };
  },
});
