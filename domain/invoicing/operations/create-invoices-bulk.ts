import type { Knex } from 'knex';
import type { BulkCreateInvoicesInput, InvoiceInput } from '../../../schemas/invoices.js';
import { type AppError, isAppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { txEvents } from '../../shared/tx-events.js';
import { txJobs } from '../../shared/tx-jobs.js';
import { invoiceOwnerOf } from '../invoice-owner.js';
import type { InvoiceView } from '../invoice-view.js';
import { issueInvoice } from '../issue-invoice.js';

export type BulkItemResult =
  | { index: number; status: 'created'; invoice: InvoiceView }
  | { index: number; status: 'failed'; error: { code: string; message: string; errors?: Record<string, string[]> } };

export interface BulkCreateResult {
  created: number;
  failed: number;
  results: BulkItemResult[];
}

/**
 * Up to 100 invoices in one request. Each item runs in its own savepoint of the request's
 * transaction: a failed item (invalid, duplicate, balance short) leaves nothing behind and is
 * reported with its index, while the others are created and committed together.
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
    const results: BulkItemResult[] = [];
    for (const [index, raw] of input.invoices.entries()) {
      try {
        const body = ctx.deps.schemas.parse<InvoiceInput>('CreateTenantInvoiceInput', raw);
        const invoice = await (ctx.tx as Knex.Transaction).transaction(async (savepoint) => {
          const jobs = txJobs(ctx.deps.boss, savepoint);
          const itemCtx = {
            ...ctx,
            tx: savepoint,
            jobs,
            events: txEvents(savepoint, jobs, ctx.caller, () => ctx.clock.now()),
          };
          const owner = await invoiceOwnerOf(savepoint, ctx.caller, body.subTenantId);
          return issueInvoice(itemCtx, owner, body);
        });
        results.push({ index, status: 'created', invoice });
      } catch (err) {
        if (!isAppError(err)) throw err;
        results.push({ index, status: 'failed', error: errorOf(err) });
      }
    }
    const created = results.filter((r) => r.status === 'created').length;
    return { created, failed: results.length - created, results };
  },
});

function errorOf(err: AppError) {
  return { code: err.code, message: err.message, ...(err.extra.fields ? { errors: err.extra.fields } : {}) };
}
