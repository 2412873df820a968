import type { EmptyInput } from '../../../schemas/common.js';
import type { TenantKeyList } from '../../../schemas/tenant-auth.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantKeysQuery } from '../api-key-queries.js';
import { type ApiKeyRow, toTenantKeyView } from '../api-key-view.js';
import { keyOwnerOf } from '../key-guards.js';

export const listTenantKeys = defineQuery<EmptyInput, TenantKeyList>({
  name: 'list_tenant_keys',
  summary:
    "List the tenant's secret and publishable keys of the caller's environment (revoked ones included), newest first; a key bound to a sub-tenant sees only the keys bound to that sub-tenant. Keys are shown by prefix and last four characters only.",
  input: 'EmptyInput',
  output: 'TenantKeyList',
  callers: ['tenant'],
  async run(_input, ctx) {
    const { tenantId, environment, subTenantId } = keyOwnerOf(ctx.caller, 'list_tenant_keys');
    const now = ctx.clock.now();
    const rows: ApiKeyRow[] = await tenantKeysQuery(ctx.tx, tenantId, environment, subTenantId);
    return { data: rows.map((row) => toTenantKeyView(row, now)) };
  },
});
