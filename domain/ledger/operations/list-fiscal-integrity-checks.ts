import type { FiscalIntegrityHistory, FiscalIntegrityHistoryInput } from '../../../schemas/fiscal.js';
import { defineQuery } from '../../shared/operation.js';
import { paginate } from '../../shared/pagination.js';
import { fiscalScopeOf } from '../fiscal-scope.js';

interface CheckRow {
  id: string;
  valid: boolean;
  sub_tenant_id: string | null;
  scope_date: string | null;
  scope_date_to: string | null;
  chains_checked: number;
  entries_checked: number;
  first_entry: number | null;
  last_entry: number | null;
  first_broken_sequence: number | null;
  checked_at: Date;
}

export const listFiscalIntegrityChecks = defineQuery<FiscalIntegrityHistoryInput, FiscalIntegrityHistory>({
  name: 'list_fiscal_integrity_checks',
  summary: 'The integrity checks recorded for the tenant (or the sub-tenant its key is bound to), newest first.',
  input: 'FiscalIntegrityHistoryInput',
  output: 'FiscalIntegrityHistory',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const scope = await fiscalScopeOf(ctx.tx, ctx.caller, undefined);
    const query = ctx
      .tx('fiscal_integrity_checks')
      .where({ tenant_id: scope.tenantId, environment: scope.environment })
      .modify((q) => {
        if (scope.subTenantId) q.andWhere({ sub_tenant_id: scope.subTenantId });
      })
      .orderBy([
        { column: 'checked_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]);
    return paginate(query, input, (row: CheckRow) => ({
      id: row.id,
      valid: row.valid,
      sub_tenant_id: row.sub_tenant_id,
      date: row.scope_date,
      date_to: row.scope_date_to ?? row.scope_date,
      chains_checked: Number(row.chains_checked),
      entries_checked: Number(row.entries_checked),
      first_entry: row.first_entry === null ? null : Number(row.first_entry),
      last_entry: row.last_entry === null ? null : Number(row.last_entry),
      first_broken_sequence: row.first_broken_sequence === null ? null : Number(row.first_broken_sequence),
      checked_at: row.checked_at.toISOString(),
    }));
  },
});
