import { randomUUID } from 'node:crypto';
import type { InvoiceInput } from '../../schemas/invoices.js';
import { actorOf } from '../audit/actor.js';
import { appendAuditEntry } from '../audit/audit-trail.js';
import { chargeFor } from '../billing/charge.js';
import { appendFiscalEntry } from '../ledger/fiscal-chain.js';
import { assertKillSwitchOff } from '../ledger/kill-switch.js';
import type { OperationContext } from '../shared/operation.js';
import { saveInvoiceDocument } from './document-store.js';
import { prepareInvoice } from './invoice.js';
import { type InvoiceOwner, insertInvoice } from './invoice-store.js';
import { type InvoiceView, toInvoiceView } from './invoice-view.js';
import { readOriginalFile } from './original-file.js';

/**
 * Creates one invoice in the operation's transaction: checks every rule, charges it in production
 * (402 when the balance is short: nothing is written), records its fiscal-ledger entry (appended
 * to the owner's chain as the transaction commits), stores it with its lines, records the audit
 * entry, emits `invoice.created` and queues its documents.
 */
export async function issueInvoice(
  ctx: OperationContext,
  owner: InvoiceOwner,
  input: InvoiceInput,
): Promise<InvoiceView> {
  await assertKillSwitchOff(ctx.tx, owner);
  const prepared = prepareInvoice(input);
  const original = input.original_file ? await readOriginalFile(input.original_file) : null;
  const now = ctx.clock.now();
  const id = randomUUID();
  const fiscalEntryId = randomUUID();
  const actor = actorOf(ctx.caller);
  const charged = await chargeFor(ctx.tx, {
    tenantId: owner.tenantId,
    environment: owner.environment,
    kind: 'invoice',
    referenceType: 'invoice',
    referenceId: id,
    actor: actor.credential_id,
    now,
  });
  // Recorded before the invoice row: the entry is appended at commit, ahead of the deferred
  // foreign key from invoices.fiscal_entry_id that checks it.
  await appendFiscalEntry(ctx.tx, owner, {
    id: fiscalEntryId,
    entryType: 'invoice_created',
    entityType: 'invoice',
    entityId: id,
    fiscalDate: prepared.issueDate,
    now,
    data: {
      invoice_id: id,
      invoice_number: prepared.invoiceNumber,
      direction: prepared.direction,
      issue_date: prepared.issueDate,
      currency: prepared.currency,
      total_ht: prepared.totalHt.toFixed(2),
      total_tax: prepared.totalTax.toFixed(2),
      total_ttc: prepared.totalTtc.toFixed(2),
      seller_siret: prepared.sellerSiret,
      buyer_siret: prepared.buyerSiret,
      buyer_name: prepared.buyerName,
      recorded_at: now.toISOString(),
    },
  });
  const { invoice, lines } = await insertInvoice(ctx.tx, {
    id,
    owner,
    companyId: ctx.caller.companyId ?? null,
    prepared,
    amountCharged: charged.toFixed(2),
    fiscalEntryId,
    createdBy: actor,
    now,
  });
  await appendAuditEntry(ctx.tx, {
    tenantId: owner.tenantId,
    environment: owner.environment,
    entityType: 'invoice',
    entityId: id,
    action: 'invoice.created',
    details: {
      invoice_number: invoice.invoice_number,
      total_ttc: invoice.total_ttc,
      currency: invoice.currency,
      amount_charged: invoice.amount_charged,
      output_format: invoice.output_format,
    },
    actorIp: ctx.caller.ip ?? null,
    actor,
    now,
    first: true,
  });
  const event = {
    id,
    invoice_number: invoice.invoice_number,
    external_id: invoice.external_id,
    status: invoice.status,
    total_ttc: Number(invoice.total_ttc),
    currency: invoice.currency,
    sub_tenant_id: invoice.sub_tenant_id,
  };
  if (original) {
    await saveInvoiceDocument(ctx.tx, {
      tenantId: owner.tenantId,
      invoiceId: id,
      kind: 'original',
      contentType: original.contentType,
      filename: original.filename,
      content: original.content,
    });
  }
  await ctx.events.emit('invoice.created', event, { tenantId: owner.tenantId, environment: owner.environment });
  await ctx.jobs.send(
    'generate-invoice-documents',
    { tenantId: owner.tenantId, invoiceId: id },
    { group: { id: owner.tenantId } },
  );
  return toInvoiceView(invoice, lines);
}
