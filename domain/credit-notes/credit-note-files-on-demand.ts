import { performance } from 'node:perf_hooks';
import type { CreditNoteIdInput } from '../../schemas/credit-notes.js';
import {
  findInvoice,
  invoiceReaderOf,
  ON_DEMAND_MAX_LINES,
  type RenderOutcome,
  type StoredInvoice,
} from '../invoicing/index.js';
import { execute } from '../shared/execute.js';
import { defineCommand, defineQuery, type OperationContext } from '../shared/operation.js';
import { type CreditNoteDocumentInfo, listCreditNoteDocuments } from './credit-note-documents.js';
import type { CreditNoteRow, StoredCreditNote } from './credit-note-row.js';
import { findReadableCreditNoteRow, withLines } from './credit-note-store.js';
import { recordCreditNoteRendering, renderCreditNote } from './generated-credit-note-documents.js';

/** A credit note and the files it has, without their bytes. */
export interface CreditNoteFiles {
  creditNote: CreditNoteRow;
  documents: CreditNoteDocumentInfo[];
}

/**
 * First step, in a read-only transaction: the credit note and its files and, while its files are
 * pending, what rendering them needs (its lines, its invoice).
 */
const readCreditNoteFiles = defineQuery<
  CreditNoteIdInput,
  CreditNoteFiles & { pending: { stored: StoredCreditNote; invoice: StoredInvoice } | null }
>({
  name: 'read_credit_note_files',
  summary: 'A credit note you may read, with the files it has (a download link step).',
  input: 'CreditNoteIdInput',
  output: 'CreditNoteFiles',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run({ id }, ctx) {
    const c = await findReadableCreditNoteRow(ctx.tx, invoiceReaderOf(ctx.caller), id);
    const pending =
      c.documents_status === 'pending'
        ? {
            stored: await withLines(ctx.tx, c),
            invoice: await findInvoice(ctx.tx, { tenantId: c.tenant_id }, c.invoice_id),
          }
        : null;
    return { creditNote: c, documents: await listCreditNoteDocuments(ctx.tx, id), pending };
  },
});

/**
 * Last step, a short transaction: takes the credit note's row lock, the one the worker takes, and
 * records `outcome` only if the files are still pending. Otherwise the worker or another request
 * recorded theirs first, and those stand: one set of files and one audit entry per credit note.
 */
const recordOnDemand = (outcome: RenderOutcome) =>
  defineCommand<CreditNoteIdInput, CreditNoteFiles>({
    name: 'record_credit_note_files',
    summary: "Store a credit note's files rendered for a download, unless they were stored meanwhile.",
    input: 'CreditNoteIdInput',
    output: 'CreditNoteFiles',
    callers: ['user', 'tenant'],
    scope: 'invoices',
    async run({ id }, ctx) {
      const locked = await findReadableCreditNoteRow(ctx.tx, invoiceReaderOf(ctx.caller), id, { forUpdate: true });
      const creditNote =
        locked.documents_status === 'pending'
          ? (await recordCreditNoteRendering(ctx, locked, outcome)).creditNote
          : locked;
      return { creditNote, documents: await listCreditNoteDocuments(ctx.tx, id) };
    },
  });

/**
 * For a credit note too long to render in the request: its document job queued again ahead of the
 * backlog, as an invoice's is (invoice-files-on-demand.ts), and the credit note as it stands now.
 */
const queueCreditNoteFilesFirst = defineCommand<CreditNoteIdInput, CreditNoteFiles>({
  name: 'queue_credit_note_files_first',
  summary: "Queue a long credit note's pending files ahead of the document worker's backlog (a download step).",
  input: 'CreditNoteIdInput',
  output: 'CreditNoteFiles',
  callers: ['user', 'tenant'],
  scope: 'invoices',
  async run({ id }, ctx) {
    const creditNote = await findReadableCreditNoteRow(ctx.tx, invoiceReaderOf(ctx.caller), id);
    if (creditNote.documents_status === 'pending') {
      await ctx.jobs.sendFirst(
        'generate-credit-note-documents',
        { tenantId: creditNote.tenant_id, creditNoteId: creditNote.id },
        creditNote.id,
      );
    }
    return { creditNote, documents: await listCreditNoteDocuments(ctx.tx, id) };
  },
});

/**
 * The credit note and its files, made now if they are still pending, as invoices' are
 * (invoice-files-on-demand.ts): rendered between two short transactions, recorded under the row
 * lock, so the worker's job then finds the credit note ready and skips it. One of more than
 * ON_DEMAND_MAX_LINES lines is left to the worker, its job moved ahead of the queue's backlog.
 */
export async function creditNoteFilesOnDemand(ctx: OperationContext, id: string): Promise<CreditNoteFiles> {
  const { pending, ...read } = await execute(readCreditNoteFiles, { id }, ctx.caller, ctx.deps);
  if (!pending) return read;
  if (pending.stored.lines.length > ON_DEMAND_MAX_LINES) {
    return execute(queueCreditNoteFilesFirst, { id }, ctx.caller, ctx.deps);
  }
  const started = performance.now();
  const outcome = await renderCreditNote(pending.stored, () => pending.invoice, ctx.log);
  ctx.log.info(
    { credit_note_id: id, render_ms: Math.round((performance.now() - started) * 100) / 100 },
    'credit note documents rendered for a download',
  );
  return execute(recordOnDemand(outcome), { id }, ctx.caller, ctx.deps);
}
