import type { AdminQuote, AdminQuoteListInput } from '../../../schemas/quotes.js';
import { defineQuery } from '../../shared/operation.js';
import type { Page } from '../../shared/pagination.js';
import { listAdminQuotes as listPage, readAcrossTenants } from '../admin-quotes.js';
import { viewOf } from '../quote-access.js';

export const listAdminQuotes = defineQuery<AdminQuoteListInput, Page<AdminQuote>>({
  name: 'list_admin_quotes',
  summary:
    'Quotes of every tenant, newest first: by status, tenant, sub-tenant, creation period or dates, and text (number, buyer, seller); up to 200 a page.',
  input: 'AdminQuoteListInput',
  output: 'AdminQuotePage',
  callers: ['user'],
  permission: 'admin access',
  async run(input, ctx) {
    await readAcrossTenants(ctx.tx);
    const page = await listPage(ctx.tx, input);
    return {
      ...page,
      data: page.data.map((s) => ({ tenant_id: s.quote.tenant_id, tenant_name: s.tenantName, quote: viewOf(ctx, s) })),
    };
  },
});
