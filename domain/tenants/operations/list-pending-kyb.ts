import type { ListPendingKybInput, PendingKybPage } from '../../../schemas/kyb.js';
import { execute } from '../../shared/execute.js';
import { defineQuery } from '../../shared/operation.js';
import { kybSystemCaller } from '../kyb-admin.js';
import { readPendingKyb } from './read-pending-kyb.js';

export const listPendingKyb = defineQuery<ListPendingKybInput, PendingKybPage>({
  name: 'list_pending_kyb',
  summary:
    'Tenants waiting for a KYB review (admin): documents_submitted or under_review, longest waiting first, each with its documents and their reviews. Download a document with GET /v1/admin/kyb/documents/{document}/download.',
  input: 'ListPendingKybInput',
  output: 'PendingKybPage',
  callers: ['user'],
  permission: 'admin access',
  // Every tenant's: read as the system.
  transactional: false,
  run(input, ctx) {
    return execute(readPendingKyb, input, kybSystemCaller(ctx.caller), ctx.deps);
  },
});
