import type { FiscalEntriesInput, FiscalEntriesPage } from '../../../schemas/fiscal.js';
import type { Environment } from '../../shared/caller.js';
import { defineQuery } from '../../shared/operation.js';
import { paginate } from '../../shared/pagination.js';
import { fiscalScopeIn } from '../fiscal-scope.js';

interface EntryRow {
  id: string;
  sequence_number: number;
  entry_type: string;
  entity_type: string;
  entity_id: string;
  fiscal_date: string;
  data_hash: string;
  previous_hash: string;
  chain_hash: string;
  legal_status: 'definitive' | 'test';
  sub_tenant_id: string | null;
  environment: Environment;
  hash_version: number;
  data: Record<string, unknown>;
  created_at: Date;
}

const toEntryView = (row: EntryRow) => ({
  ...row,
  sequence_number: Number(row.sequence_number),
  created_at: row.created_at.toISOString(),
});

export const listFiscalEntries = defineQuery<FiscalEntriesInput, FiscalEntriesPage>({
  name: 'list_fiscal_entries',
  summary:
    'The fiscal-ledger entries of the key’s environment, chain by chain in sequence order, with their hashes (filters: dates, type, sub-tenant; 20 per page by default).',
  input: 'FiscalEntriesInput',
  output: 'FiscalEntriesPage',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const scope = await fiscalScopeIn(ctx.tx, ctx.caller, input);
    const query = ctx
      .tx('fiscal_entries')
      .where({ tenant_id: scope.tenantId, environment: scope.environment })
      .modify((q) => {
        if (scope.subTenantId) q.andWhere({ sub_tenant_id: scope.subTenantId });
        if (input.entry_type) q.andWhere({ entry_type: input.entry_type });
        if (input.date_from) q.andWhere('fiscal_date', '>=', input.date_from);
        if (input.date_to) q.andWhere('fiscal_date', '<=', input.date_to);
      })
      .orderByRaw('sub_tenant_id nulls first, sequence_number')
      .select(
        'id',
        'sequence_number',
        'entry_type',
        'entity_type',
        'entity_id',
        'fiscal_date',
        'data_hash',
        'previous_hash',
        'chain_hash',
        'legal_status',
        'sub_tenant_id',
        'environment',
        'hash_version',
        'data',
        'created_at',
      );
    return { success: true as const, ...(await paginate(query, input, toEntryView)) };
  },
});
