import type { AdminQuote, AdminQuoteIdInput } from '../../../schemas/quotes.js';
import { defineQuery } from '../../shared/operation.js';
import { readAcrossTenants } from '../admin-quotes.js';
import { viewOf } from '../quote-access.js';
import { findQuoteById } from '../quote-store.js';

export const getAdminQuote = defineQuery<AdminQuoteIdInput, AdminQuote>({
  name: 'get_admin_quote',
  summary: 'Read any tenant’s quote, with its tenant.',
  input: 'AdminQuoteIdInput',
  output: 'AdminQuote',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await readAcrossTenants(ctx.tx);
    const stored = await findQuoteById(ctx.tx, input.quote);
    const tenant = await ctx.tx('tenants').where({ id: stored.quote.tenant_id }).first<{ name: string }>('name');
    return { tenant_id: stored.quote.tenant_id, tenant_name: tenant?.name ?? '', quote: viewOf(ctx, stored) };
  },
});
