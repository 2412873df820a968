import type { EmptyInput } from '../../../schemas/common.js';
import type { KybDocumentList } from '../../../schemas/kyb.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import { toKybDocumentView } from '../kyb-document.js';
import { listKybDocumentRows } from '../kyb-store.js';

export const listKybDocuments = defineQuery<EmptyInput, KybDocumentList>({
  name: 'list_kyb_documents',
  summary: 'List your KYB documents, oldest first, each with its review (pending, approved or rejected and why).',
  input: 'EmptyInput',
  output: 'KybDocumentList',
  callers: ['tenant'],
  async run(_input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'list_kyb_documents');
    return (await listKybDocumentRows(ctx.tx, [tenantId])).map(toKybDocumentView);
  },
});
