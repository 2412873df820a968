import type { ApplyKybReviewInput, KybReview } from '../../../schemas/kyb.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { toKybDocumentView } from '../kyb-document.js';
import { lockTenantKyb, moveKyb, statusesAfterReview } from '../kyb-state.js';
import {
  findKybDocument,
  kybStatusView,
  listKybDocumentRows,
  requiredApproved,
  reviewKybDocumentRow,
} from '../kyb-store.js';

const TYPE_NAMES = {
  kbis: 'Kbis',
  id_card: 'identity document',
  articles: 'articles',
  proof_of_address: 'proof of address',
};

/**
 * The system step of an admin's review (review-kyb-document.ts): the document may be any tenant's,
 * so it runs as the system. The tenant's KYB row is locked first, as uploads and deletions do.
 */
export const applyKybReview = defineCommand<ApplyKybReviewInput, KybReview>({
  name: 'apply_kyb_review',
  summary:
    "Record an admin's decision on a KYB document and move its tenant's KYB: under_review at the first decision, rejected on a rejection, verified once each required type is approved.",
  input: 'ApplyKybReviewInput',
  output: 'KybReview',
  callers: ['system'],
  async run(input, ctx) {
    const reason = input.reason?.trim() || null;
    if (input.decision === 'reject' && !reason) {
      throw AppError.validation({ reason: ['is required to reject a document: the tenant is told why'] });
    }
    const found = await findKybDocument(ctx.tx, null, input.document);
    const tenant = await lockTenantKyb(ctx.tx, found.tenant_id);
    const document = await findKybDocument(ctx.tx, found.tenant_id, found.id, { lock: true });
    if (!tenant) throw new AppError('NOT_FOUND', `KYB document ${input.document} not found.`);
    if (document.status !== 'pending') {
      throw new AppError(
        'INVALID_STATE',
        `KYB document ${document.id} was already ${document.status} on ${document.reviewed_at?.toISOString()}.`,
      );
    }
    const reviewed = await reviewKybDocumentRow(ctx.tx, document, {
      status: input.decision === 'approve' ? 'approved' : 'rejected',
      reason,
      reviewerId: input.reviewer_id,
      now: ctx.clock.now(),
    });
    const documents = await listKybDocumentRows(ctx.tx, [tenant.id]);
    const path = statusesAfterReview(tenant.kyb_status, input.decision, requiredApproved(documents));
    const after = await moveKyb(ctx, tenant, path, reason && `${TYPE_NAMES[document.type]} refused: ${reason}`);
    return { document: toKybDocumentView(reviewed), tenant_id: tenant.id, kyb: kybStatusView(after, documents) };
  },
});
