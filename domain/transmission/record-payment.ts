import { randomUUID } from 'node:crypto';
import type { InvoiceRow } from '../invoicing/index.js';
import { appendFiscalEntry, type PaymentData } from '../ledger/index.js';
import type { OperationContext } from '../shared/operation.js';

export interface PaymentFacts {
  /** The bank's reference, or the provider's event that reported it. */
  reference: string;
  /** YYYY-MM-DD */
  date: string;
}

/**
 * Records an outgoing invoice's payment in the fiscal ledger (entry type `payment`, the fields of
 * domain/ledger/fiscal-entry-data.ts PaymentData: the FEC posts it 512 / 411 in journal BQ).
 * The whole amount due is paid: `fr:212` without details means the invoice total (provider-apis.md §1.6).
 * Returns the invoice columns to set with it.
 */
export async function recordPayment(
  ctx: OperationContext,
  invoice: InvoiceRow,
  facts: PaymentFacts,
): Promise<{ payment_id: string; paid_at: Date }> {
  const now = ctx.clock.now();
  const paymentId = randomUUID();
  const data: PaymentData = {
    payment_id: paymentId,
    payment_reference: facts.reference,
    invoice_id: invoice.id,
    invoice_number: invoice.invoice_number,
    direction: invoice.direction,
    payment_date: facts.date,
    currency: invoice.currency,
    amount: invoice.total_ttc,
    seller_siret: invoice.seller_siret,
    seller_name: invoice.seller_name,
    buyer_siret: invoice.buyer_siret,
    buyer_name: invoice.buyer_name,
    recorded_at: now.toISOString(),
  };
  await appendFiscalEntry(
    ctx.tx,
    { tenantId: invoice.tenant_id, environment: invoice.environment, subTenantId: invoice.sub_tenant_id },
    {
      entryType: 'payment',
      entityType: 'payment',
      entityId: paymentId,
      fiscalDate: facts.date,
      data: { ...data },
      now,
    },
  );
  return { payment_id: paymentId, paid_at: now };
}
