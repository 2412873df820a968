import type { KybDocumentIdInput } from '../../../schemas/kyb.js';
import { execute } from '../../shared/execute.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { kybSystemCaller } from '../kyb-admin.js';
import { readKybDocumentFile } from './read-kyb-document-file.js';

export const downloadKybDocumentForReview = defineQuery<KybDocumentIdInput, FileOutput>({
  name: 'download_kyb_document_for_review',
  summary: "Download a tenant's KYB document to review it (admin): the file as uploaded. 404 for an unknown id.",
  input: 'KybDocumentIdInput',
  output: 'KybDocumentFile',
  callers: ['user'],
  permission: 'admin access',
  // Any tenant's document: read as the system.
  transactional: false,
  run(input, ctx) {
    return execute(readKybDocumentFile, input, kybSystemCaller(ctx.caller), ctx.deps);
  },
});
