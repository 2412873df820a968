import { performance } from 'node:perf_hooks';
import type { InvoiceIdInput } from '../../schemas/invoices.js';
import { execute } from '../shared/execute.js';
import { defineCommand, defineQuery, type OperationContext } from '../shared/operation.js';
import { type InvoiceDocumentInfo, listInvoiceDocuments } from './document-store.js';
import {
  ON_DEMAND_MAX_LINES,
  type RenderOutcome,
  recordInvoiceRendering,
  renderInvoiceFiles,
} from './generated-documents.js';
import { findReadableInvoiceRow, invoiceReaderOf } from './invoice-queries.js';
import type { InvoiceLineRow, InvoiceRow } from './invoice-row.js';
import { linesOfInvoice } from './invoice-store.js';

/** An invoice and the files it has, without their bytes. */
export interface InvoiceFiles {
  invoice: InvoiceRow;
  documents: InvoiceDocumentInfo[];
}

/**
 * First step, in a read-only transaction: the invoice and its files and, while its files are
 * pending, its lines to render them.
 */
const readInvoiceFiles = defineQuery<InvoiceIdInput, InvoiceFiles & { lines: InvoiceLineRow[] | null }>({
  name: 'read_invoice_files',
  summary: 'An invoice you may read, with the files it has (a download link step).',
  input: 'InvoiceIdInput',
  output: 'InvoiceFiles',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run({ id }, ctx) {
    const invoice = await findReadableInvoiceRow(ctx.tx, invoiceReaderOf(ctx.caller), id);
    const lines = invoice.documents_status === 'pending' ? await linesOfInvoice(ctx.tx, id) : null;
    return { invoice, lines, documents: await listInvoiceDocuments(ctx.tx, id) };
  },
});

/**
 * Last step, a short transaction: takes the invoice's row lock, the one the worker takes, and
 * records `outcome` only if the files are still pending. Otherwise the worker or another request
 * recorded theirs first, and those stand: one set of files and one audit entry per invoice.
 */
const recordOnDemand = (outcome: RenderOutcome) =>
  defineCommand<InvoiceIdInput, InvoiceFiles>({
    name: 'record_invoice_files',
    summary: "Store an invoice's files rendered for a download, unless they were stored meanwhile.",
    input: 'InvoiceIdInput',
    output: 'InvoiceFiles',
    callers: ['user', 'tenant'],
    scope: 'invoices',
    async run({ id }, ctx) {
      const locked = await findReadableInvoiceRow(ctx.tx, invoiceReaderOf(ctx.caller), id, { forUpdate: true });
      const invoice =
        locked.documents_status === 'pending' ? (await recordInvoiceRendering(ctx, locked, outcome)).invoice : locked;
      return { invoice, documents: await listInvoiceDocuments(ctx.tx, id) };
    },
  });

/**
 * For an invoice too long to render in the request: its document job is queued again ahead of the
 * document worker's backlog (`sendFirst`: at most once a minute however often the caller asks), so
 * its files are made next; the job queued at creation then finds them made. Returns the invoice and
 * its files as they stand now: made, if the worker got there since the read.
 */
const queueInvoiceFilesFirst = defineCommand<InvoiceIdInput, InvoiceFiles>({
  name: 'queue_invoice_files_first',
  summary: "Queue a long invoice's pending files ahead of the document worker's backlog (a download step).",
  input: 'InvoiceIdInput',
  output: 'InvoiceFiles',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run({ id }, ctx) {
    const invoice = await findReadableInvoiceRow(ctx.tx, invoiceReaderOf(ctx.caller), id);
    if (invoice.documents_status === 'pending') {
      await ctx.jobs.sendFirst(
        'generate-invoice-documents',
        { tenantId: invoice.tenant_id, invoiceId: invoice.id },
        invoice.id,
      );
    }
    return { invoice, documents: await listInvoiceDocuments(ctx.tx, id) };
  },
});

/**
 * The invoice and its files, its generated files made now if they are still pending (`generated`:
 * the caller wants one of them), so that a download does not wait for the document worker's queue.
 * Rendering a 10-line invoice takes about a millisecond, so it runs in the request, between the
 * two transactions: no transaction or lock is held while it runs. The worker's job then finds the
 * invoice ready and skips it. An invoice of more than ON_DEMAND_MAX_LINES lines is left to the
 * worker, its job moved ahead of the queue's backlog.
 */
export async function invoiceFilesOnDemand(
  ctx: OperationContext,
  id: string,
  generated: boolean,
): Promise<InvoiceFiles> {
  const { lines, ...read } = await execute(readInvoiceFiles, { id }, ctx.caller, ctx.deps);
  if (!generated || !lines) return read;
  if (lines.length > ON_DEMAND_MAX_LINES) return execute(queueInvoiceFilesFirst, { id }, ctx.caller, ctx.deps);
  const started = performance.now();
  const outcome = await renderInvoiceFiles({ invoice: read.invoice, lines }, ctx.log);
  ctx.log.info(
    { invoice_id: id, render_ms: Math.round((performance.now() - started) * 100) / 100 },
    'invoice documents rendered for a download',
  );
  return execute(recordOnDemand(outcome), { id }, ctx.caller, ctx.deps);
}
