import type { Knex } from 'knex';
import type { BulkCreateInvoicesInput, BulkCreateInvoicesResult, InvoiceInput } from '../../../schemas/invoices.js';
import { chainOpenChecker } from '../../ledger/index.js';
import { type AppError, isAppError } from '../../shared/app-error.js';
import { type ErrorBody, errorBody } from '../../shared/error-body.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { txEvents } from '../../shared/tx-events.js';
import { txJobs } from '../../shared/tx-jobs.js';
import { invoiceOwnerOf } from '../invoice-owner.js';
import type { InvoiceView } from '../invoice-view.js';
import { checkInvoice, type InvoiceToIssue, issueInvoices } from '../issue-invoice.js';

export type BulkItemResult =
  | { index: number; status: 'created'; invoice: InvoiceView }
  | { index: number; status: 'failed'; error: ErrorBody };

/** Schema `BulkCreateInvoicesResult`: the type comes from the schema. */
export type BulkCreateResult = BulkCreateInvoicesResult;

/**
 * Up to 100 invoices in one request. Every item is checked on its own first; the accepted ones are
 * then written together (`issueInvoices`, a fixed number of statements). If that cannot be done (a
 * reused number, a short balance), each accepted item is written in its own savepoint of the
 * request's transaction instead: a failed item (invalid, duplicate, balance short) leaves nothing
 * behind and is reported with its index, while the others are created and committed together.
 */
export const createInvoicesBulk = defineCommand<BulkCreateInvoicesInput, BulkCreateResult>({
  name: 'create_invoices_bulk',
  summary:
    'Create up to 100 invoices at once. Each item is checked and created on its own: the result lists, by index, the invoices created and the errors of those refused (nothing is written for a refused item).',
  input: 'BulkCreateInvoicesInput',
  output: 'BulkCreateInvoicesResult',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const checked: (InvoiceToIssue | AppError)[] = [];
    const assertChainOpen = chainOpenChecker(ctx.tx);
    for (const raw of input.invoices) {
      try {
        const body = ctx.deps.schemas.parse<InvoiceInput>('CreateTenantInvoiceInput', raw);
        const owner = await invoiceOwnerOf(ctx.tx, ctx.caller, body.subTenantId);
        await assertChainOpen(owner, body.issue_date);
        checked.push(await checkInvoice(owner, ctx.caller, body));
      } catch (err) {
        if (!isAppError(err)) throw err;
        checked.push(err);
      }
    }
    const accepted = checked.filter((item): item is InvoiceToIssue => !isAppError(item));
    const written = (await inSavepoint(ctx, (itemCtx) => issueInvoices(itemCtx, accepted)).catch(() => null)) ?? [];
    const views = new Map(written.map((view) => [view.id, view]));
    const results: BulkItemResult[] = [];
    for (const [index, item] of checked.entries()) {
      if (isAppError(item)) {
        results.push({ index, status: 'failed', error: errorBody(item) });
        continue;
      }
      try {
        const invoice = views.get(item.id) ?? (await inSavepoint(ctx, (itemCtx) => issueInvoices(itemCtx, [item])))[0];
        results.push({ index, status: 'created', invoice });
      } catch (err) {
        if (!isAppError(err)) throw err;
        results.push({ index, status: 'failed', error: errorBody(err) });
      }
    }
    const created = results.filter((r) => r.status === 'created').length;
    return { created, failed: results.length - created, results };
  },
});

/** Runs writes in a savepoint of the request's transaction, with jobs and events bound to it. */
function inSavepoint<T>(ctx: OperationContext, run: (itemCtx: OperationContext) => Promise<T>): Promise<T> {
  return (ctx.tx as Knex.Transaction).transaction((savepoint) => {
    const jobs = txJobs(ctx.deps.boss, savepoint);
    return run({ ...ctx, tx: savepoint, jobs, events: txEvents(savepoint, jobs, ctx.caller, () => ctx.clock.now()) });
  });
}
