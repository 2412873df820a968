import { type InvoiceOwner, invoiceOwnerOf } from '../invoicing/index.js';
import type { OperationContext } from '../shared/operation.js';
import { findQuote, type StoredQuote } from './quote-store.js';
import { toQuoteView } from './quote-view.js';

/** The sub-tenant of the path, within the caller's tenant and environment (404 otherwise). */
export const quoteOwnerOf = (ctx: OperationContext, subTenantId?: string): Promise<InvoiceOwner> =>
  invoiceOwnerOf(ctx.tx, ctx.caller, subTenantId);

/** A quote of the caller's sub-tenant (or of any of the tenant's, without one), 404 for any other id. */
export async function quoteOf(
  ctx: OperationContext,
  input: { subTenantId?: string; id: string },
  options: { forUpdate?: boolean } = {},
): Promise<StoredQuote> {
  return findQuote(ctx.tx, await quoteOwnerOf(ctx, input.subTenantId), input.id, options);
}

export const viewOf = (ctx: OperationContext, stored: StoredQuote) =>
  toQuoteView(ctx.deps.config, stored, ctx.clock.now());

/** Today in UTC, as the quotes' dates are written. */
export const todayOf = (ctx: OperationContext): string => ctx.clock.now().toISOString().slice(0, 10);
