import type { KybDocumentIdInput } from '../../../schemas/kyb.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { findKybDocument, kybDocumentFile } from '../kyb-store.js';

/** The system step of an admin's download (download-kyb-document-for-review.ts): any tenant's document. */
export const readKybDocumentFile = defineQuery<KybDocumentIdInput, FileOutput>({
  name: 'read_kyb_document_file',
  summary: "A tenant's KYB document, opened, for an admin's review.",
  input: 'KybDocumentIdInput',
  output: 'KybDocumentFile',
  callers: ['system'],
  async run(input, ctx) {
    return kybDocumentFile(ctx.tx, ctx.deps.config, await findKybDocument(ctx.tx, null, input.document));
  },
});
