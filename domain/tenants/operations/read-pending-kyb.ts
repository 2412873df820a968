import type { ListPendingKybInput, PendingKybPage, PendingKybTenant } from '../../../schemas/kyb.js';
import { defineQuery } from '../../shared/operation.js';
import { paginate } from '../../shared/pagination.js';
import { type KybDocumentRow, toKybDocumentView } from '../kyb-document.js';
import { listKybDocumentRows } from '../kyb-store.js';

interface WaitingRow {
  id: string;
  name: string;
  legal_name: string | null;
  siret: string | null;
  email: string | null;
  kyb_status: 'documents_submitted' | 'under_review';
  kyb_submitted_at: Date | null;
}

/** The system step of the admins' queue (list-pending-kyb.ts): every tenant's, so run as the system. */
export const readPendingKyb = defineQuery<ListPendingKybInput, PendingKybPage>({
  name: 'read_pending_kyb',
  summary:
    'Tenants whose KYB waits for a review (documents_submitted or under_review), longest waiting first, with their documents.',
  input: 'ListPendingKybInput',
  output: 'PendingKybPage',
  callers: ['system'],
  async run(input, ctx) {
    const query = ctx
      .tx('tenants')
      .where({ kind: 'platform' })
      .whereIn('kyb_status', ['documents_submitted', 'under_review'])
      .orderBy([{ column: 'kyb_submitted_at', nulls: 'first' }, { column: 'id' }])
      .select(['id', 'name', 'legal_name', 'siret', 'email', 'kyb_status', 'kyb_submitted_at']);
    const page = await paginate(
      query,
      { page: input.page ?? 1, per_page: input.per_page ?? 20 },
      (row: WaitingRow) => row,
    );
    const documents = page.data.length
      ? await listKybDocumentRows(
          ctx.tx,
          page.data.map((row) => row.id),
        )
      : [];
    const byTenant = new Map<string, KybDocumentRow[]>();
    for (const document of documents)
      byTenant.set(document.tenant_id, [...(byTenant.get(document.tenant_id) ?? []), document]);
    const data: PendingKybTenant[] = page.data.map((row) => ({
      tenant_id: row.id,
      name: row.name,
      legal_name: row.legal_name,
      siret: row.siret,
      email: row.email,
      kyb_status: row.kyb_status,
      submitted_at: row.kyb_submitted_at ? row.kyb_submitted_at.toISOString() : null,
      documents: (byTenant.get(row.id) ?? []).map(toKybDocumentView),
    }));
    return { data, meta: page.meta };
  },
});
