import type { QuoteAuditLog, QuoteIdInput } from '../../../schemas/quotes.js';
import { defineQuery } from '../../shared/operation.js';
import { quoteOf } from '../quote-access.js';
import { quoteAuditIntact, readQuoteAudit } from '../quote-audit.js';

export const getQuoteAuditLog = defineQuery<QuoteIdInput, QuoteAuditLog>({
  name: 'get_quote_audit_log',
  summary:
    "A quote's hash-chained log, oldest first: each entry's `chainHash` is SHA-256 of the previous entry's `chainHash` and the entry's own SHA-256; `valid` says whether the chain checks.",
  input: 'QuoteIdInput',
  output: 'QuoteAuditLog',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const { quote } = await quoteOf(ctx, input);
    const entries = await readQuoteAudit(ctx.tx, quote.id);
    return {
      quote_id: quote.id,
      valid: quoteAuditIntact(entries),
      entries: entries.map((e) => ({
        sequence_number: e.sequence_number,
        action: e.action,
        details: e.details,
        actor: e.actor,
        actor_ip: e.actor_ip,
        created_at: new Date(e.created_at).toISOString(),
        previousChainHash: e.previous_chain_hash,
        chainHash: e.chain_hash,
      })),
    };
  },
});
