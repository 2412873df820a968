import type { KybReview, ReviewKybDocumentInput } from '../../../schemas/kyb.js';
import { AppError } from '../../shared/app-error.js';
import { execute } from '../../shared/execute.js';
import { defineCommand } from '../../shared/operation.js';
import { kybSystemCaller } from '../kyb-admin.js';
import { applyKybReview } from './apply-kyb-review.js';

export const reviewKybDocument = defineCommand<ReviewKybDocumentInput, KybReview>({
  name: 'review_kyb_document',
  summary:
    "Approve or reject a tenant's KYB document (admin; a rejection needs a reason, which the tenant sees). The first decision moves the tenant to under_review; a rejection to rejected; once kbis, id_card and articles are each approved the tenant is verified and its production keys work at once. 409 for a document already reviewed.",
  input: 'ReviewKybDocumentInput',
  output: 'KybReview',
  callers: ['user'],
  permission: 'admin access',
  // The document is any tenant's: the decision is written as the system, in one transaction.
  transactional: false,
  run(input, ctx) {
    if (!ctx.caller.userId) throw new AppError('FORBIDDEN', 'review_kyb_document needs a signed-in admin.');
    return execute(applyKybReview, { ...input, reviewer_id: ctx.caller.userId }, kybSystemCaller(ctx.caller), ctx.deps);
  },
});
