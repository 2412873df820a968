import {
  createCreditNote,
  deleteCreditNote,
  downloadCreditNote,
  getCreditNote,
  getRemainingCreditable,
  listCreditNotes,
  sendCreditNote,
} from '../../../domain/credit-notes/operations/index.js';
import type { JsonSchema } from '../../../schemas/registry.js';
import { CREATE, DESTROY, idArgument, READ, renameId, type ToolSpec } from '../tool.js';

const creditNoteId = (extra: Record<string, JsonSchema> = {}) =>
  idArgument('credit_note_id', 'The credit note id (UUID).', extra);

export const creditNoteTools: readonly ToolSpec[] = [
  {
    name: 'create_credit_note',
    group: 'credit_notes',
    title: 'Create a credit note',
    description:
      'Creates a draft credit note against an issued invoice (a refund, a discount, a cancellation), within what remains creditable (see get_remaining_creditable). It enters the fiscal ledger; send it with send_credit_note. BILLABLE: 0.04 EUR with a production key.',
    input: { base: 'CreateCreditNoteInput', omit: ['subTenantId'] },
    annotations: CREATE,
    operation: createCreditNote,
  },
  {
    name: 'get_credit_note',
    group: 'credit_notes',
    title: 'Read a credit note',
    description: 'Reads one credit note with its items, totals and status (draft or sent).',
    input: creditNoteId(),
    annotations: READ,
    operation: getCreditNote,
    toInput: renameId('credit_note_id'),
  },
  {
    name: 'list_credit_notes',
    group: 'credit_notes',
    title: 'List credit notes',
    description: 'Lists credit notes, newest first, 15 per page by default (at most 100), by status, invoice or type.',
    input: { base: 'CreditNoteListInput', paging: true, omit: ['subTenantId'] },
    annotations: READ,
    operation: listCreditNotes,
  },
  {
    name: 'download_credit_note',
    group: 'credit_notes',
    title: 'Link to a credit note file',
    description:
      'Returns a link `{url, expires_at}`, valid 15 minutes without credentials, to a credit note file: pdf (default), facturx, ubl or cii.',
    input: creditNoteId({
      type: {
        type: 'string',
        enum: ['pdf', 'facturx', 'ubl', 'cii'],
        default: 'pdf',
        description: 'Which file, pdf by default.',
      },
    }),
    annotations: READ,
    operation: downloadCreditNote,
    toInput: (args) => ({ ...renameId('credit_note_id')(args), link: true }),
  },
  {
    name: 'delete_credit_note',
    group: 'credit_notes',
    title: 'Delete a draft credit note',
    description:
      'Deletes a credit note that is still a draft. DESTRUCTIVE; a sent credit note cannot be deleted (refused).',
    input: creditNoteId(),
    annotations: DESTROY,
    operation: deleteCreditNote,
    toInput: renameId('credit_note_id'),
  },
  {
    name: 'send_credit_note',
    group: 'credit_notes',
    title: 'Send a credit note',
    description: 'Sends a draft credit note to the buyer: it becomes `sent` and can no longer change or be deleted.',
    input: creditNoteId(),
    annotations: { ...DESTROY, destructiveHint: false },
    operation: sendCreditNote,
    toInput: renameId('credit_note_id'),
  },
  {
    name: 'get_remaining_creditable',
    group: 'credit_notes',
    title: 'What remains creditable',
    description:
      'How much of an invoice can still be credited, in total and per line, after its credit notes. Use it before create_credit_note.',
    input: idArgument('invoice_id', 'The invoice id (UUID).'),
    annotations: READ,
    operation: getRemainingCreditable,
    toInput: (args) => ({ invoice: args.invoice_id }),
  },
];
