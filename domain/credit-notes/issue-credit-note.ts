import { randomUUID } from 'node:crypto';
import type { CreateCreditNoteInput } from '../../schemas/credit-notes.js';
import { actorOf, appendAuditEntry, appendFirstAuditEntries } from '../audit/index.js';
import { chargeFor } from '../billing/index.js';
import { findReadableInvoice, type InvoiceReader, type InvoiceRow } from '../invoicing/index.js';
import {
  appendFiscalEntry,
  assertChainOpen,
  assertKillSwitchOff,
  type CreditNoteIssuedData,
  canonicalJson,
} from '../ledger/index.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { type PreparedCreditNote, prepareCreditNote } from './credit-note.js';
import { nextCreditNoteNumber } from './credit-note-number.js';
import { duplicateNumber, findNumberTaken, insertCreditNote, ownerOfInvoice } from './credit-note-store.js';
import { type CreditNoteView, toCreditNoteView } from './credit-note-view.js';
import { readBalance } from './remaining-creditable.js';

/**
 * Creates a credit note in the operation's transaction. The invoice row is locked first (SELECT …
 * FOR UPDATE): credit notes of one invoice take turns, and each one reads what the previous ones
 * credited before checking its own caps, so concurrent credit notes can never credit more than
 * the invoice. Then, all or nothing: the kill switch (503), the rules and caps (422), an
 * `issue_date` after the chain's last closed period (422), the number, the 0.04 EUR debit in
 * production (402), the `credit_note_issued` ledger entry, the credit note and its lines, the
 * audit entries (credit note and invoice), `credit_note.created` and the document job.
 * `subTenantId` (tenant routes) restricts the invoice to that sub-tenant.
 */
export async function issueCreditNote(
  ctx: OperationContext,
  reader: InvoiceReader,
  input: CreateCreditNoteInput,
): Promise<CreditNoteView> {
  const { invoice, lines } = await findReadableInvoice(ctx.tx, reader, input.invoice_id, { forUpdate: true });
  if (input.subTenantId && invoice.sub_tenant_id !== input.subTenantId) {
    throw new AppError('NOT_FOUND', 'No such invoice.');
  }
  if (invoice.status === 'deleted') {
    throw new AppError(
      'INVALID_STATE',
      `Invoice ${invoice.invoice_number} is a deleted draft: there is nothing to credit.`,
      { body: { status: invoice.status } },
    );
  }
  const owner = ownerOfInvoice(invoice);
  await assertKillSwitchOff(ctx.tx, owner);
  const now = ctx.clock.now();
  const prepared = prepareCreditNote(input, await readBalance(ctx.tx, invoice, lines), now.toISOString().slice(0, 10));
  await assertChainOpen(ctx.tx, owner, prepared.issueDate);

  let number = input.credit_note_number?.trim();
  if (number) {
    const taken = await findNumberTaken(ctx.tx, owner, invoice.seller_siret, number);
    if (taken) throw duplicateNumber(invoice.seller_siret, number, taken);
  } else {
    number = await nextCreditNoteNumber(ctx.tx, owner, invoice.seller_siret, prepared.issueDate);
  }

  const id = randomUUID();
  const actor = actorOf(ctx.caller);
  const charged = await chargeFor(ctx, {
    tenantId: owner.tenantId,
    environment: owner.environment,
    kind: 'credit_note',
    referenceType: 'credit_note',
    referenceId: id,
    actor: actor.credential_id,
    now,
  });
  // Recorded before the credit note row: appended at commit, ahead of the deferred foreign key.
  const { id: fiscalEntryId } = await appendFiscalEntry(ctx.tx, owner, {
    entryType: 'credit_note_issued',
    entityType: 'credit_note',
    entityId: id,
    fiscalDate: prepared.issueDate,
    now,
    data: { ...ledgerData(id, number, invoice, prepared, now) },
  });
  const stored = await insertCreditNote(ctx.tx, {
    id,
    number,
    invoice,
    prepared,
    amountCharged: charged.toFixed(2),
    fiscalEntryId,
    createdBy: actor,
    now,
  });
  const c = stored.creditNote;
  const audit = { tenantId: c.tenant_id, environment: c.environment, actorIp: ctx.caller.ip ?? null, actor, now };
  await appendFirstAuditEntries(ctx.tx, [
    {
      ...audit,
      entityType: 'credit_note',
      entityId: id,
      action: 'credit_note.created',
      details: {
        credit_note_number: number,
        invoice_id: invoice.id,
        invoice_number: invoice.invoice_number,
        type: c.type,
        reason: c.reason,
        total_ht: c.total_ht,
        total_ttc: c.total_ttc,
        currency: c.currency,
        amount_charged: c.amount_charged,
      },
      first: true,
    },
  ]);
  await appendAuditEntry(ctx.tx, {
    ...audit,
    entityType: 'invoice',
    entityId: invoice.id,
    action: 'invoice.credited',
    details: { credit_note_id: id, credit_note_number: number, type: c.type, total_ht: c.total_ht },
  });
  await ctx.events.emit(
    'credit_note.created',
    {
      id,
      credit_note_number: number,
      invoice_id: invoice.id,
      invoice_number: invoice.invoice_number,
      type: c.type,
      status: c.status,
      total_ht: Number(c.total_ht),
      total_ttc: Number(c.total_ttc),
      currency: c.currency,
      sub_tenant_id: c.sub_tenant_id,
    },
    { tenantId: c.tenant_id, environment: c.environment },
  );
  await ctx.jobs.send(
    'generate-credit-note-documents',
    { tenantId: c.tenant_id, creditNoteId: id },
    { group: { id: c.tenant_id } },
  );
  return toCreditNoteView(stored);
}

/** The `credit_note_issued` entry's data, exactly the shape of domain/ledger/fiscal-entry-data.ts. */
function ledgerData(
  id: string,
  number: string,
  invoice: InvoiceRow,
  p: PreparedCreditNote,
  now: Date,
): CreditNoteIssuedData {
  return {
    credit_note_id: id,
    credit_note_number: number,
    invoice_id: invoice.id,
    invoice_number: invoice.invoice_number,
    direction: invoice.direction,
    issue_date: p.issueDate,
    currency: invoice.currency,
    total_ht: p.totalHt.toFixed(2),
    total_tax: p.totalTax.toFixed(2),
    total_ttc: p.totalTtc.toFixed(2),
    vat_breakdown: canonicalJson(
      p.vatBreakdown.map((g) => ({
        rate: g.rate.toFixed(2),
        taxable_amount: g.taxableAmount.toFixed(2),
        tax_amount: g.taxAmount.toFixed(2),
      })),
    ),
    seller_siret: invoice.seller_siret,
    seller_name: invoice.seller_name,
    buyer_siret: invoice.buyer_siret,
    buyer_name: invoice.buyer_name,
    recorded_at: now.toISOString(),
  };
}
