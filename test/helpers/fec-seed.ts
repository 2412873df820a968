import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { appendFiscalEntry } from '../../domain/ledger/fiscal-chain.js';
import type { CreditNoteIssuedData, PaymentData } from '../../domain/ledger/fiscal-entry-data.js';
import type { Environment } from '../../domain/shared/caller.js';
import { BUYER_SIRET, SELLER_SIRET } from './invoice-bodies.js';

export interface SeedChain {
  tenantId: string;
  environment: Environment;
  subTenantId?: string | null;
}

type Flat = Record<string, string | number | boolean | null>;

/** Appends one entry the way a business operation does: recorded in a transaction, chained at commit. */
async function append(
  db: Knex,
  chain: SeedChain,
  entryType: 'credit_note_issued' | 'payment',
  date: string,
  data: Flat,
) {
  const entityId = randomUUID();
  await db.transaction((tx) =>
    appendFiscalEntry(
      tx,
      { tenantId: chain.tenantId, environment: chain.environment, subTenantId: chain.subTenantId ?? null },
      {
        entryType,
        entityType: entryType === 'payment' ? 'payment' : 'credit_note',
        entityId,
        fiscalDate: date,
        data: { ...data, [entryType === 'payment' ? 'payment_id' : 'credit_note_id']: entityId },
        now: new Date(),
      },
    ),
  );
}

/** A credit note entry as credit-note creation appends it (domain/ledger/fiscal-entry-data.ts). */
export function seedCreditNote(
  db: Knex,
  chain: SeedChain,
  fields: Partial<CreditNoteIssuedData> &
    Pick<CreditNoteIssuedData, 'invoice_number' | 'issue_date' | 'total_ht' | 'total_tax' | 'total_ttc'>,
) {
  const data: Omit<CreditNoteIssuedData, 'credit_note_id'> = {
    credit_note_number: `AV-${randomUUID().slice(0, 8)}`,
    invoice_id: randomUUID(),
    direction: 'outgoing',
    currency: 'EUR',
    vat_breakdown: null,
    seller_siret: SELLER_SIRET,
    seller_name: 'Vendeur SAS',
    buyer_siret: BUYER_SIRET,
    buyer_name: 'Acheteur SARL',
    recorded_at: new Date().toISOString(),
    ...fields,
  };
  return append(db, chain, 'credit_note_issued', data.issue_date, data as Flat);
}

/** A payment entry as a recorded payment appends it. */
export function seedPayment(
  db: Knex,
  chain: SeedChain,
  fields: Partial<PaymentData> & Pick<PaymentData, 'invoice_number' | 'payment_date' | 'amount'>,
) {
  const data: Omit<PaymentData, 'payment_id'> = {
    payment_reference: `VIR-${randomUUID().slice(0, 8)}`,
    invoice_id: randomUUID(),
    direction: 'outgoing',
    currency: 'EUR',
    seller_siret: SELLER_SIRET,
    seller_name: 'Vendeur SAS',
    buyer_siret: BUYER_SIRET,
    buyer_name: 'Acheteur SARL',
    recorded_at: new Date().toISOString(),
    ...fields,
  };
  return append(db, chain, 'payment', data.payment_date, data as Flat);
}
