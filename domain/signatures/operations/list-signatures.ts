import type { SignatureListInput } from '../../../schemas/signatures.js';
import { defineQuery } from '../../shared/operation.js';
import type { Page } from '../../shared/pagination.js';
import { signatureReaderOf } from '../signature-owner.js';
import { listSignaturePage } from '../signature-store.js';
import { type SignatureView, toSignatureView } from '../signature-view.js';

export const listSignatures = defineQuery<SignatureListInput, Page<SignatureView>>({
  name: 'list_signatures',
  summary:
    'List signature requests newest first, with their signers. A key reads its own environment only; a dashboard token both. Filters: status (pending, completed, refused, expired, cancelled, failed), environment. Paginated: per_page default 25, at most 100.',
  input: 'SignatureListInput',
  output: 'SignaturePage',
  callers: ['user', 'tenant'],
  scope: 'signatures',
  async run(input, ctx) {
    const page = await listSignaturePage(ctx.tx, signatureReaderOf(ctx.caller), input);
    return { ...page, data: page.data.map((s) => toSignatureView(ctx.deps.config, s)) };
  },
});
