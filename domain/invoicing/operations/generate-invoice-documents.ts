import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { GeneratedDocumentsBatch, InvoiceDocumentsInput } from '../../../schemas/invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { prepared } from '../../shared/prepared-statements.js';
import { tableColumns } from '../../shared/table-columns.js';
import { keepAsked, whereTenantKeys } from '../../shared/tenant-keys.js';
import {
  type GeneratedDocuments,
  type RenderOutcome,
  recordInvoiceRenderings,
  renderInvoiceFiles,
} from '../generated-documents.js';
import type { InvoiceRow } from '../invoice-row.js';
import { linesOf } from '../invoice-store.js';

export type { GeneratedDocuments };

/**
 * The document worker's step, for a batch of invoices in one transaction: renders each invoice's
 * files from the stored invoice (its format, plus the readable PDF or, for Factur-X, the embedded
 * CII), stores them and marks the invoice `ready`, with an audit entry giving each file's SHA-256.
 * A fixed number of statements whatever the batch's size: one lock, one read of the lines, one
 * insert of the files, one update, one insert of the audit entries, and one commit.
 *
 * Idempotent: an invoice already ready is skipped, whoever made its files (a download renders them
 * on demand when it comes first). Rendering is pure, so a failure would repeat: the invoice is
 * marked `failed` with the reason, and downloads say so, instead of retrying forever. Runs as the
 * system across tenants; each invoice is matched on its tenant too, so a job only ever reaches the
 * invoice of the tenant that queued it.
 */
export const generateInvoiceDocuments = defineCommand<InvoiceDocumentsInput, GeneratedDocumentsBatch>({
  name: 'generate_invoice_documents',
  summary: "Render and store invoices' files (worker step).",
  input: 'InvoiceDocumentsInput',
  output: 'GeneratedDocumentsBatch',
  callers: ['system'],
  // about 50 KB of files per invoice: the job's completion flushes them
  redoneIfLost: true,
  async run({ invoices }, ctx) {
    // Locked in id order: two batches sharing invoices (a retried job) wait, never deadlock. Found
    // by id (the primary key), then matched on the tenant that queued each job.
    const rows = keepAsked(
      await prepared(
        whereTenantKeys(ctx.tx.from('invoices'), invoices)
          .orderBy('id')
          .forUpdate()
          .select<InvoiceRow[]>(ctx.tx.raw(await tableColumns(ctx.tx, 'invoices'))),
        'lock_invoices_to_render',
      ),
      invoices,
    );
    const pending = rows.filter((row) => row.documents_status !== 'ready');
    const lines = await linesOf(
      ctx.tx,
      pending.map((row) => row.id),
    );
    const renderings: { invoice: InvoiceRow; outcome: RenderOutcome }[] = [];
    for (const [i, invoice] of pending.entries()) {
      // A render holds the event loop; between two, the process's other callbacks get their turn.
      if (i > 0) await yieldToEventLoop();
      const outcome = await renderInvoiceFiles({ invoice, lines: lines.get(invoice.id) ?? [] }, ctx.log);
      renderings.push({ invoice, outcome });
    }
    const recorded = new Map(
      (await recordInvoiceRenderings(ctx, renderings)).map(({ generated }) => [generated.id, generated]),
    );
    const found = new Set(rows.map((row) => `${row.id}:${row.tenant_id}`));
    return {
      invoices: invoices.map(({ id, tenant_id }): GeneratedDocuments => {
        if (!found.has(`${id}:${tenant_id}`)) return { id, documents_status: 'missing', files: [] };
        return recorded.get(id) ?? { id, documents_status: 'skipped', files: [] };
      }),
    };
  },
});
