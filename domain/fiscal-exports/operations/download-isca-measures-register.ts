import type { IscaDocumentInput } from '../../../schemas/fiscal-attestations.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { measuresRegisterPdf } from '../isca-documents.js';
import { oneChain, reportScope } from '../report-scope.js';

export const downloadIscaMeasuresRegister = defineQuery<IscaDocumentInput, FileOutput>({
  name: 'download_isca_measures_register',
  summary:
    "The ISCA register of measures of a fiscal chain as a PDF (French): dated table of the chain's opening, kill-switch activations and deactivations, fiscal rule versions, closings, RFC 3161 time-stamps and integrity checks.",
  input: 'IscaDocumentInput',
  output: 'FiscalDocumentPdf',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    return {
      content: await measuresRegisterPdf(ctx, oneChain(await reportScope(ctx, input))),
      contentType: 'application/pdf',
      filename: 'isca-registre-des-mesures.pdf',
    };
  },
});
