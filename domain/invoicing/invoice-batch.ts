import type { InvoiceInput } from '../../schemas/invoices.js';
import { chainOpenChecker, compareChains } from '../ledger/index.js';
import { type AppError, isAppError } from '../shared/app-error.js';
import type { Caller } from '../shared/caller.js';
import { CallsNotWritable, environmentLane } from '../shared/group-commit.js';
import type { BatchSpec, OperationContext } from '../shared/operation.js';
import type { InvoiceOwner } from './invoice-store.js';
import type { InvoiceView } from './invoice-view.js';
import {
  checkInvoice,
  checkInvoiceContent,
  InvoicesNotWritable,
  type InvoiceToIssue,
  issueInvoices,
} from './issue-invoice.js';

type OwnerOf<I> = (ctx: OperationContext, caller: Caller, input: I) => Promise<InvoiceOwner>;

/**
 * Concurrent creations of one environment written in one transaction, whichever tenants they are
 * for: each chain's kill switch and closed periods are read once, each invoice is checked on its
 * own (a refused one gets its own error and writes nothing), and the accepted ones are written
 * together by `issueInvoices`, tenant by tenant: two batches that share tenants (in two web
 * processes) lock their balances in the same order, as they do their chains.
 */
export function invoiceBatch<I extends InvoiceInput>(ownerOf: OwnerOf<I>): BatchSpec<I, InvoiceView> {
  return {
    key: environmentLane,
    async check(input) {
      await checkInvoiceContent(input);
    },
    async run(calls, ctx) {
      const results: (InvoiceView | AppError | InvoiceToIssue)[] = [];
      const assertChainOpen = chainOpenChecker(ctx.tx);
      for (const call of calls) {
        try {
          const owner = await ownerOf(ctx, call.caller, call.input);
          await assertChainOpen(owner, call.input.issue_date);
          results.push(await checkInvoice(owner, call.caller, call.input));
        } catch (err) {
          if (!isAppError(err)) throw err;
          results.push(err);
        }
      }
      const accepted = results
        .filter((r): r is InvoiceToIssue => !isAppError(r))
        .sort((a, b) => compareChains(a.owner, b.owner));
      const views = new Map((await issueInvoicesOf(ctx, accepted, results)).map((view) => [view.id, view]));
      return results.map((r) => (isAppError(r) ? r : (views.get(r.id) as InvoiceView)));
    },
  };
}

/** `issueInvoices`, whose invoices that cannot be written with the others are named by their calls. */
async function issueInvoicesOf(
  ctx: OperationContext,
  accepted: InvoiceToIssue[],
  results: readonly (InvoiceView | AppError | InvoiceToIssue)[],
): Promise<InvoiceView[]> {
  try {
    return await issueInvoices(ctx, accepted);
  } catch (err) {
    if (!(err instanceof InvoicesNotWritable)) throw err;
    const apart = new Set(err.ids);
    const calls = results.flatMap((r, i) => (!isAppError(r) && apart.has(r.id) ? [i] : []));
    throw new CallsNotWritable(calls, err);
  }
}
