import type { FiscalClosingsInput } from '../../../schemas/fiscal-closings.js';
import { defineQuery } from '../../shared/operation.js';
import { type Page, paginate } from '../../shared/pagination.js';
import type { ClosingRow } from '../closing-store.js';
import { type ClosingView, closingViews } from '../closing-view.js';
import { fiscalScopeIn } from '../fiscal-scope.js';

export const listFiscalClosings = defineQuery<FiscalClosingsInput, Page<ClosingView> & { success: true }>({
  name: 'list_fiscal_closings',
  summary:
    'The fiscal closings of the key’s environment, newest period first, with their totals, hashes and anchor state (filters: type, period dates, sub-tenant; 20 per page by default).',
  input: 'FiscalClosingsInput',
  output: 'FiscalClosingsPage',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const scope = await fiscalScopeIn(ctx.tx, ctx.caller, input);
    const query = ctx
      .tx('fiscal_closings')
      .where({ tenant_id: scope.tenantId, environment: scope.environment })
      .modify((q) => {
        if (scope.subTenantId) q.andWhere({ sub_tenant_id: scope.subTenantId });
        if (input.type) q.andWhere({ type: input.type });
        if (input.date_from) q.andWhere('period_start', '>=', input.date_from);
        if (input.date_to) q.andWhere('period_start', '<=', input.date_to);
      })
      .orderBy([
        { column: 'period_start', order: 'desc' },
        { column: 'type', order: 'asc' },
        { column: 'id', order: 'asc' },
      ])
      .select('*');
    const page = await paginate(query, input, (row: ClosingRow) => row);
    return { success: true as const, ...page, data: await closingViews(ctx.tx, scope.tenantId, page.data) };
  },
});
