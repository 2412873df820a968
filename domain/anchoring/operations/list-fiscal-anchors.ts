import type { FiscalAnchorsInput } from '../../../schemas/fiscal-anchors.js';
import { fiscalScopeIn } from '../../ledger/index.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import { type AnchorView, anchorsWithAttempts, toAnchorView } from '../anchor-view.js';

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000);

export const listFiscalAnchors = defineQuery<FiscalAnchorsInput, Page<AnchorView> & { success: true }>({
  name: 'list_fiscal_anchors',
  summary:
    'The RFC 3161 anchors of the key’s fiscal closings, newest first: the time-stamped hash, the TSA, the token and its certificates, and whether it verified (filters: status, closing, dates, sub-tenant).',
  input: 'FiscalAnchorsInput',
  output: 'FiscalAnchorsPage',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const scope = await fiscalScopeIn(ctx.tx, ctx.caller, input);
    const query = anchorsWithAttempts(ctx.tx)
      .where({ 'a.tenant_id': scope.tenantId, 'a.environment': scope.environment })
      .modify((q) => {
        if (scope.subTenantId) q.andWhere('a.sub_tenant_id', scope.subTenantId);
        if (input.status) q.andWhere('a.status', input.status);
        if (input.entity_id) q.andWhere('a.entity_id', input.entity_id);
        if (input.date_from) q.andWhere('a.created_at', '>=', new Date(`${input.date_from}T00:00:00Z`));
        if (input.date_to) q.andWhere('a.created_at', '<', nextDay(input.date_to));
      })
      .orderBy([
        { column: 'a.created_at', order: 'desc' },
        { column: 'a.id', order: 'desc' },
      ]);
    return { success: true as const, ...(await paginate(query, input, toAnchorView)) };
  },
});
