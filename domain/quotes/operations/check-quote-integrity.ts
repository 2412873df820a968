import type { EmptyInput } from '../../../schemas/common.js';
import type { QuoteIntegrityReport } from '../../../schemas/quotes.js';
import { defineQuery } from '../../shared/operation.js';
import { checkQuotes, readAcrossTenants } from '../admin-quotes.js';

export const checkQuoteIntegrity = defineQuery<EmptyInput, QuoteIntegrityReport>({
  name: 'check_quote_integrity',
  summary:
    'Check every quote: orphans (sub-tenant gone, converted without an invoice, invoices deleted), conversions that do not add up (beyond the total, a balance that does not complete it, invoices on a quote not marked converted), statuses stuck past their dates (open past the validity date or the link expiry, drafts never sent), and audit chains that do not check.',
  input: 'EmptyInput',
  output: 'QuoteIntegrityReport',
  callers: ['user'],
  permission: 'admin access',
  snapshot: true,
  async run(_input, ctx) {
    await readAcrossTenants(ctx.tx);
    const now = ctx.clock.now();
    const r = await checkQuotes(ctx.tx, now);
    return {
      valid: r.orphans.length + r.conversions.length + r.stuck.length + r.chains.length === 0,
      checked_at: now.toISOString(),
      quotes_checked: r.quotesChecked,
      orphan_quotes: r.orphans,
      inconsistent_conversions: r.conversions,
      stuck_statuses: r.stuck,
      broken_audit_chains: r.chains,
    };
  },
});
