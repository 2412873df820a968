import { randomUUID } from 'node:crypto';
import type { InvoiceInput } from '../../schemas/invoices.js';
import { type AuditFact, actorOf, firstAuditRows } from '../audit/index.js';
import { chargeFor, type Decimal } from '../billing/index.js';
import { assertChainOpen, compareChains, type FiscalFact, fiscalPendingRows } from '../ledger/index.js';
import { AppError, isAppError } from '../shared/app-error.js';
import type { Caller } from '../shared/caller.js';
import { insertTogether } from '../shared/insert-together.js';
import type { OperationContext } from '../shared/operation.js';
import type { EventToEmit } from '../shared/tx-events.js';
import { saveInvoiceDocument } from './document-store.js';
import {
  type InvoiceTypeCode,
  type NumberedInvoice,
  type PrecedingInvoice,
  type PreparedInvoice,
  prepareInvoice,
} from './invoice.js';
import { missingNumber, numberInvoices } from './invoice-numbering.js';
import {
  type InvoiceOwner,
  insertInvoice,
  insertInvoices,
  NEW_INVOICE_STATUS,
  type NewInvoice,
} from './invoice-store.js';
import { type InvoiceView, toInvoiceView } from './invoice-view.js';
import { type OriginalFile, readOriginalFile } from './original-file.js';

/**
 * Invoices of a batch that cannot be written with the others: an `external_id` or number already
 * taken (by an invoice or by another of the batch), or their tenant's balance that does not cover
 * them. The batch is undone; its caller writes those apart to tell each its own outcome.
 */
export class InvoicesNotWritable extends AppError {
  constructor(
    readonly ids: readonly string[],
    cause: AppError | null,
  ) {
    super('CONFLICT', cause?.message ?? 'An invoice of the batch reuses an external_id or an invoice number.', {
      cause,
    });
  }
}

/** One invoice checked and ready to write: every rule passed, its ids chosen. */
export interface InvoiceToIssue {
  id: string;
  fiscalEntryId: string;
  owner: InvoiceOwner;
  caller: Caller;
  prepared: PreparedInvoice;
  original: OriginalFile | null;
}

type NumberedToIssue = InvoiceToIssue & { prepared: NumberedInvoice };

interface CheckedContent {
  prepared: PreparedInvoice;
  original: OriginalFile | null;
}

/** Each input is checked once, whether before it waits for its lane (group commit) or in its transaction. */
const checkedInputs = new WeakMap<InvoiceInput, Promise<CheckedContent>>();

/**
 * Checks every rule of one invoice body (EN 16931 totals, identifiers, the original file's
 * content) without touching the database: an invoice refused here has written nothing.
 */
export function checkInvoiceContent(input: InvoiceInput): Promise<CheckedContent> {
  let checked = checkedInputs.get(input);
  if (!checked) {
    checked = (async () => ({
      prepared: prepareInvoice(input),
      original: input.original_file ? await readOriginalFile(input.original_file) : null,
    }))();
    checkedInputs.set(input, checked);
  }
  return checked;
}

/** One invoice checked for its owner, its ids chosen. */
export async function checkInvoice(owner: InvoiceOwner, caller: Caller, input: InvoiceInput): Promise<InvoiceToIssue> {
  const { prepared, original } = await checkInvoiceContent(input);
  if (prepared.invoiceNumber === null && owner.subTenantId === null) throw missingNumber();
  return { id: randomUUID(), fiscalEntryId: randomUUID(), owner, caller, prepared, original };
}

/**
 * Creates one invoice in the operation's transaction: checks the kill switch (503), that its
 * `issue_date` lies after the chain's last closed period (422), every rule, charges it in production
 * (402 when the balance is short: nothing is written), records its fiscal-ledger entry (appended
 * to the owner's chain as the transaction commits), stores it with its lines, records the audit
 * entry, emits `invoice.created` and queues its documents. A reused `external_id` or number is 409.
 */
export async function issueInvoice(
  ctx: OperationContext,
  owner: InvoiceOwner,
  input: InvoiceInput,
  kind?: InvoiceKind,
): Promise<InvoiceView> {
  await assertChainOpen(ctx.tx, owner, input.issue_date);
  const checked = await checkInvoice(owner, ctx.caller, input);
  const toIssue = kind ? { ...checked, prepared: { ...checked.prepared, ...kind } } : checked;
  const [view] = await issueInvoices(ctx, [toIssue]);
  return view;
}

/**
 * What a quote's conversion sets on the invoice it issues (docs/decisions/0074): the type code
 * (386 for a deposit) and the deposit invoices a balance invoice deducts.
 */
export interface InvoiceKind {
  typeCode: InvoiceTypeCode;
  precedingInvoices: PrecedingInvoice[];
}

/**
 * Writes checked invoices in the operation's transaction, each exactly as `issueInvoice` would,
 * with a fixed number of statements whatever their number (group commit, bulk creation); those of
 * a sub-tenant left unnumbered get consecutive numbers of its sequence, in their order. It is
 * all or nothing: invoices that cannot be written with the others (a taken number, a short balance)
 * throw `InvoicesNotWritable`, and the caller writes them apart to tell each its own outcome (a lone
 * invoice throws its own 409 or 402). The kill switch of every
 * owner and the fiscal period of every invoice must have been checked in this transaction.
 */
export async function issueInvoices(ctx: OperationContext, toIssue: readonly InvoiceToIssue[]): Promise<InvoiceView[]> {
  const now = ctx.clock.now();
  // first: the numbers are part of the ledger entries; fresh objects, so a retry numbers anew
  const invoices = await numberInvoices(ctx.tx, toIssue);
  const charged: Decimal[] = [];
  // tenants whose balance does not cover their invoices of the batch: their refusal
  const short = new Map<string, AppError>();
  for (const item of invoices) {
    if (short.has(item.owner.tenantId)) continue;
    try {
      charged.push(
        await chargeFor(ctx, {
          tenantId: item.owner.tenantId,
          environment: item.owner.environment,
          kind: 'invoice',
          referenceType: 'invoice',
          referenceId: item.id,
          actor: actorOf(item.caller).credential_id,
          now,
        }),
      );
    } catch (err) {
      // a short balance is its tenant's (the statement failed nothing): the others are charged on
      if (invoices.length === 1 || !isAppError(err) || err.code !== 'INSUFFICIENT_BALANCE') throw err;
      short.set(item.owner.tenantId, err);
    }
  }
  if (short.size > 0) {
    throw new InvoicesNotWritable(
      invoices.filter((item) => short.has(item.owner.tenantId)).map((item) => item.id),
      [...short.values()][0],
    );
  }
  const rows: NewInvoice[] = invoices.map((item, i) => ({
    id: item.id,
    owner: item.owner,
    companyId: item.caller.companyId ?? null,
    prepared: item.prepared,
    amountCharged: charged[i].toFixed(2),
    fiscalEntryId: item.fiscalEntryId,
    createdBy: actorOf(item.caller),
    now,
  }));
  const ledger = fiscalPendingRows(
    [...invoices]
      .sort((a, b) => compareChains(a.owner, b.owner))
      .map((item) => ({ chain: item.owner, fact: fiscalFactOf(item, now) })),
  );
  const events = ctx.events.prepareMany(rows.map(createdEventOf));
  // One statement for the ledger's entries, the audit entries and the events, written before the
  // invoice rows: the entries are appended at commit ahead of the deferred foreign key from
  // invoices.fiscal_entry_id that checks them. A batch that cannot write one of its invoices
  // throws below and is undone whole, so none of these outlives an invoice that was not written.
  await insertTogether(ctx.tx, 'insert_invoice_records', [
    ledger.pending,
    firstAuditRows(invoices.map((item, i) => auditFactOf(item, rows[i], now))),
    events.rows,
  ]);
  const stored = rows.length === 1 ? [await insertInvoice(ctx.tx, rows[0])] : await insertInvoices(ctx.tx, rows);
  if (stored.length !== invoices.length) {
    const written = new Set(stored.map(({ invoice }) => invoice.id));
    throw new InvoicesNotWritable(
      invoices.filter((item) => !written.has(item.id)).map((item) => item.id),
      null,
    );
  }
  for (const item of invoices) {
    if (!item.original) continue;
    await saveInvoiceDocument(ctx.tx, {
      tenantId: item.owner.tenantId,
      invoiceId: item.id,
      kind: 'original',
      contentType: item.original.contentType,
      filename: item.original.filename,
      content: item.original.content,
    });
  }
  await events.queue();
  await ctx.jobs.sendMany(
    'generate-invoice-documents',
    stored.map(({ invoice }) => ({
      payload: { tenantId: invoice.tenant_id, invoiceId: invoice.id },
      group: { id: invoice.tenant_id },
    })),
  );
  return stored.map(({ invoice, lines }) => toInvoiceView(invoice, lines));
}

function fiscalFactOf(item: NumberedToIssue, now: Date): FiscalFact {
  const p = item.prepared;
  return {
    id: item.fiscalEntryId,
    entryType: 'invoice_created',
    entityType: 'invoice',
    entityId: item.id,
    fiscalDate: p.issueDate,
    now,
    data: {
      invoice_id: item.id,
      invoice_number: p.invoiceNumber,
      direction: p.direction,
      issue_date: p.issueDate,
      currency: p.currency,
      total_ht: p.totalHt.toFixed(2),
      total_tax: p.totalTax.toFixed(2),
      total_ttc: p.totalTtc.toFixed(2),
      seller_siret: p.sellerSiret,
      buyer_siret: p.buyerSiret,
      buyer_name: p.buyerName,
      recorded_at: now.toISOString(),
    },
  };
}

/** `invoice.created`: what the invoice is as written (a new invoice is a draft). */
function createdEventOf(row: NewInvoice): EventToEmit {
  const p = row.prepared;
  return {
    name: 'invoice.created',
    data: {
      id: row.id,
      invoice_number: p.invoiceNumber,
      external_id: p.externalId,
      status: NEW_INVOICE_STATUS,
      total_ttc: Number(p.totalTtc.toFixed(2)),
      currency: p.currency,
      sub_tenant_id: row.owner.subTenantId,
    },
    options: { tenantId: row.owner.tenantId, environment: row.owner.environment },
  };
}

function auditFactOf(item: InvoiceToIssue, row: NewInvoice, now: Date): AuditFact {
  const p = row.prepared;
  return {
    tenantId: item.owner.tenantId,
    environment: item.owner.environment,
    entityType: 'invoice',
    entityId: item.id,
    action: 'invoice.created',
    details: {
      invoice_number: p.invoiceNumber,
      total_ttc: p.totalTtc.toFixed(2),
      currency: p.currency,
      amount_charged: row.amountCharged,
      output_format: p.outputFormat,
      ...(p.typeCode !== '380' ? { type_code: p.typeCode } : {}),
      ...(p.precedingInvoices.length > 0 ? { preceding_invoices: p.precedingInvoices.map((d) => d.number) } : {}),
    },
    actorIp: item.caller.ip ?? null,
    actor: actorOf(item.caller),
    now,
    first: true,
  };
}
