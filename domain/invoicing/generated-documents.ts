import type { GeneratedDocuments as GeneratedDocumentsSchema } from '../../schemas/invoices.js';
import { actorOf } from '../audit/index.js';
import { type RenderedFile, renderFormat } from '../documents/index.js';
import type { Logger } from '../shared/logger.js';
import type { OperationContext } from '../shared/operation.js';
import { prepared } from '../shared/prepared-statements.js';
import { tableColumns } from '../shared/table-columns.js';
import { saveGeneratedDocuments } from './document-store.js';
import { auditInvoices } from './invoice-audit.js';
import type { InvoiceRow, StoredInvoice } from './invoice-row.js';
import { toInvoiceDocument } from './to-document.js';

/** What the document worker made of one invoice (schema `GeneratedDocuments`). */
export type GeneratedDocuments = GeneratedDocumentsSchema;

/**
 * Most lines a download renders itself while the files are pending. Rendering runs on the web
 * process's event loop: a 10-line Factur-X takes about 0.7 ms, 200 lines about 5 ms, 1000 lines
 * about 25 ms (measured on the 2-core box). Longer documents wait for the document worker
 * (409 DOCUMENT_NOT_READY with Retry-After), as every download did before.
 */
export const ON_DEMAND_MAX_LINES = 200;

/** The files of a rendering, or why there are none. */
export type RenderOutcome = { files: RenderedFile[] } | { error: string };

/**
 * Runs `render` and keeps its failure as a reason: rendering is pure, so a failure would repeat,
 * and it is recorded (`failed`) instead of being retried.
 */
export async function renderOutcome(
  render: () => RenderedFile[] | Promise<RenderedFile[]>,
  log: Logger,
  subject: Record<string, string>,
  message: string,
): Promise<RenderOutcome> {
  try {
    return { files: await render() };
  } catch (err) {
    log.error({ err, ...subject }, message);
    return { error: err instanceof Error ? err.message : String(err) };
  }
}

/** An invoice's files (its format, plus the readable PDF or, for Factur-X, the embedded CII). */
export const renderInvoiceFiles = (stored: StoredInvoice, log: Logger): Promise<RenderOutcome> =>
  renderOutcome(
    () => renderFormat(toInvoiceDocument(stored), stored.invoice.output_format, stored.invoice.profile),
    log,
    { invoice_id: stored.invoice.id },
    'invoice documents could not be rendered',
  );

/** A failure's reason as `documents_error` keeps it (downloads quote it). */
export const failureReason = (outcome: { error: string }): string => outcome.error.slice(0, 500);

/** What a rendering's files are, for the audit entry and the worker's result. */
export const fileSummary = (files: readonly RenderedFile[]) =>
  files.map((f) => ({ kind: f.kind, byte_size: f.content.length, sha256: f.sha256 }));

/**
 * Records a rendering of an invoice whose row the caller holds locked and found not ready: its files,
 * `ready` and the `invoice.documents_generated` entry giving each file's SHA-256; or `failed` with
 * the reason. The worker and a download that renders on demand both record through here, under that
 * lock, so an invoice gets one set of files and one entry whoever rendered it.
 */
export async function recordInvoiceRendering(
  ctx: OperationContext,
  invoice: InvoiceRow,
  outcome: RenderOutcome,
): Promise<{ invoice: InvoiceRow; generated: GeneratedDocuments }> {
  const [recorded] = await recordInvoiceRenderings(ctx, [{ invoice, outcome }]);
  return recorded;
}

/**
 * `recordInvoiceRendering` for many invoices at once (the document worker's batch), in a fixed
 * number of statements: the files in one insert, the statuses in one update, the audit entries in
 * one insert; a failure (rare: rendering is pure) is an update of its own.
 */
export async function recordInvoiceRenderings(
  ctx: OperationContext,
  renderings: readonly { invoice: InvoiceRow; outcome: RenderOutcome }[],
): Promise<{ invoice: InvoiceRow; generated: GeneratedDocuments }[]> {
  const now = ctx.clock.now();
  const updated = new Map<string, InvoiceRow>();
  for (const { invoice, outcome } of renderings) {
    if (!('error' in outcome)) continue;
    const [failed] = await ctx
      .tx('invoices')
      .where({ id: invoice.id })
      .update({ documents_status: 'failed', documents_error: failureReason(outcome), updated_at: now })
      .returning<InvoiceRow[]>('*');
    updated.set(invoice.id, failed);
  }
  const rendered = renderings.flatMap(({ invoice, outcome }) =>
    'files' in outcome ? [{ invoice, files: outcome.files }] : [],
  );
  if (rendered.length > 0) {
    await saveGeneratedDocuments(
      ctx.tx,
      rendered.flatMap(({ invoice, files }) =>
        files.map((f) => ({
          tenantId: invoice.tenant_id,
          invoiceId: invoice.id,
          kind: f.kind,
          contentType: f.contentType,
          filename: f.filename,
          content: f.content,
          sha256: f.sha256,
        })),
      ),
    );
    const ready = await prepared(
      ctx
        .tx('invoices')
        .whereRaw('id = any(?::uuid[])', [rendered.map(({ invoice }) => invoice.id)])
        .update({ documents_status: 'ready', documents_error: null, updated_at: now })
        .returning<InvoiceRow[]>(ctx.tx.raw(await tableColumns(ctx.tx, 'invoices'))),
      'invoices_ready',
    );
    for (const row of ready) updated.set(row.id, row);
    await auditInvoices(
      ctx.tx,
      rendered.map(({ invoice, files }) => ({
        invoice,
        entry: {
          action: 'invoice.documents_generated',
          details: { output_format: invoice.output_format, profile: invoice.profile, files: fileSummary(files) },
          actorIp: ctx.caller.ip ?? null,
          actor: actorOf(ctx.caller),
          now,
        },
      })),
    );
  }
  return renderings.map(({ invoice, outcome }) => ({
    invoice: updated.get(invoice.id)!,
    generated:
      'error' in outcome
        ? { id: invoice.id, documents_status: 'failed', files: [] }
        : { id: invoice.id, documents_status: 'ready', files: fileSummary(outcome.files) },
  }));
}
