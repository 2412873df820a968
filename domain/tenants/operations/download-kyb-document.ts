import type { KybDocumentIdInput } from '../../../schemas/kyb.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import { findKybDocument, kybDocumentFile } from '../kyb-store.js';

export const downloadKybDocument = defineQuery<KybDocumentIdInput, FileOutput>({
  name: 'download_kyb_document',
  summary: 'Download one of your KYB documents: the file as uploaded (PDF, JPG or PNG). 404 for an unknown id.',
  input: 'KybDocumentIdInput',
  output: 'KybDocumentFile',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'download_kyb_document');
    return kybDocumentFile(ctx.tx, ctx.deps.config, await findKybDocument(ctx.tx, tenantId, input.document));
  },
});
