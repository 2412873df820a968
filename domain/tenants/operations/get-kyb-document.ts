import type { KybDocument, KybDocumentIdInput } from '../../../schemas/kyb.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import { toKybDocumentView } from '../kyb-document.js';
import { findKybDocument } from '../kyb-store.js';

export const getKybDocument = defineQuery<KybDocumentIdInput, KybDocument>({
  name: 'get_kyb_document',
  summary: 'Read one of your KYB documents: its type, file name, size, SHA-256 and review. 404 for an unknown id.',
  input: 'KybDocumentIdInput',
  output: 'KybDocument',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'get_kyb_document');
    return toKybDocumentView(await findKybDocument(ctx.tx, tenantId, input.document));
  },
});
