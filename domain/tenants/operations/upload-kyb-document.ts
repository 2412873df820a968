import { randomUUID } from 'node:crypto';
import type { KybDocument, UploadKybDocumentInput } from '../../../schemas/kyb.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../key-guards.js';
import { KYB_DOCUMENTS_MAX, toKybDocumentView } from '../kyb-document.js';
import { type KybFile, readKybFile } from '../kyb-file.js';
import { lockTenantKyb, moveKyb, statusAfterUpload } from '../kyb-state.js';
import { insertKybDocument, kybKey } from '../kyb-store.js';

export const uploadKybDocument = defineCommand<UploadKybDocumentInput, KybDocument>({
  name: 'upload_kyb_document',
  summary:
    'Upload a KYB document (kbis, id_card, articles or proof_of_address): a PDF, JPG or PNG file of at most 10 MB, checked by content and stored encrypted. The first documents (or new ones after a rejection) move the KYB to documents_submitted, for an admin to review. Refused (409) once the KYB is verified.',
  input: 'UploadKybDocumentInput',
  output: 'KybDocument',
  callers: ['tenant'],
  scope: 'profile:write',
  // The file is read (a PDF in a worker thread) before the transaction opens: a refused file writes nothing.
  prepare: (input, _deps, log) => readKybFile(input.document, log),
  async run(input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'upload_kyb_document');
    const key = kybKey(ctx.deps.config);
    const tenant = await lockTenantKyb(ctx.tx, tenantId);
    if (!tenant) throw new AppError('NOT_FOUND', 'Tenant not found.');
    if (tenant.kyb_status === 'verified') {
      throw new AppError('INVALID_STATE', 'Your KYB is verified: no more documents are needed.');
    }
    const [{ n }] = await ctx.tx('kyb_documents').where({ tenant_id: tenantId }).count<{ n: string }[]>({ n: '*' });
    if (Number(n) >= KYB_DOCUMENTS_MAX) {
      throw AppError.validation({
        document: [`at most ${KYB_DOCUMENTS_MAX} documents are kept: delete one first (DELETE .../kyb/documents/{id})`],
      });
    }
    const row = await insertKybDocument(ctx.tx, key, {
      id: randomUUID(),
      tenantId,
      type: input.type,
      file: ctx.prepared as KybFile,
      now: ctx.clock.now(),
    });
    const next = statusAfterUpload(tenant.kyb_status);
    await moveKyb(ctx, tenant, next === tenant.kyb_status ? [] : [next]);
    return toKybDocumentView(row);
  },
});
