import type { QuotePageView } from '../../schemas/quotes.js';
import { moneyToJson } from '../billing/index.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { enterTenant } from '../shared/tenant-context.js';
import { prepareQuote } from './quote-body.js';
import { quoteTokenHash } from './quote-link.js';
import type { QuoteRow } from './quote-row.js';
import { findQuoteById, type StoredQuote } from './quote-store.js';
import { effectiveStatus, quoteLineView } from './quote-view.js';

const unknownLink = () => new AppError('NOT_FOUND', 'This quote link is not valid.');

/**
 * The quote of a public link, in its tenant's rows from then on: 404 for an unknown token, a
 * revoked or expired link, or a draft (never sent) quote.
 */
export async function quoteOfToken(
  ctx: OperationContext,
  token: string,
  options: { forUpdate?: boolean } = {},
): Promise<StoredQuote> {
  const { rows } = await ctx.tx.raw<{ rows: { tenant_id: string; quote_id: string }[] }>(
    'select * from quote_find_by_token(?)',
    [quoteTokenHash(token)],
  );
  const found = rows[0];
  if (!found) throw unknownLink();
  await enterTenant(ctx.tx, found.tenant_id);
  const stored = await findQuoteById(ctx.tx, found.quote_id, options);
  const q = stored.quote;
  const now = ctx.clock.now();
  if (q.public_token_hash !== quoteTokenHash(token) || q.public_link_revoked_at || q.status === 'draft') {
    throw unknownLink();
  }
  if (!q.public_link_expires_at || q.public_link_expires_at.getTime() <= now.getTime()) throw unknownLink();
  return stored;
}

/** Where the buyer goes after answering: the quote's callback URL with the outcome, if it has one. */
export function redirectOf(q: QuoteRow, outcome: 'signed' | 'refused' | null, reason?: string | null): string | null {
  if (!outcome || !q.content.callback_url) return null;
  const url = new URL(q.content.callback_url);
  url.searchParams.set('status', outcome);
  url.searchParams.set('quote_id', q.id);
  url.searchParams.set('quote_number', q.quote_number);
  if (reason) url.searchParams.set('reason', reason);
  return url.toString();
}

/** What the buyer's page shows. */
export function toPageView(q: QuoteRow, today: string, redirect: string | null = null): QuotePageView {
  const p = prepareQuote(q.content);
  return {
    quote_number: q.quote_number,
    status: effectiveStatus(q, today),
    seller_name: p.sellerName,
    buyer_name: p.buyerName,
    issue_date: q.issue_date,
    validity_date: q.validity_date,
    currency: q.currency,
    lines: p.lines.map(quoteLineView),
    total_ht: moneyToJson(q.total_ht),
    total_tax: moneyToJson(q.total_tax),
    total_ttc: moneyToJson(q.total_ttc),
    notes: q.content.notes ?? null,
    payment_terms: q.content.payment_terms ?? null,
    redirect_url: redirect,
  };
}

/** 409 unless the buyer can still answer: sent or viewed, and within its validity date. */
export function assertAnswerable(q: QuoteRow, today: string): void {
  const status = effectiveStatus(q, today);
  if (status !== 'sent' && status !== 'viewed') {
    throw new AppError('INVALID_STATE', `This quote is ${status}: it can no longer be answered.`, { body: { status } });
  }
}
