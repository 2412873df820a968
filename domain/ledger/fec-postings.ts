import { createHash } from 'node:crypto';
import { Decimal } from '../billing/index.js';
import type { AppliedRules } from './fiscal-rules.js';

/** The ledger entry behind a fact. */
export interface EntryRef {
  id: string;
  sequenceNumber: number;
  subTenantId: string | null;
  entryType: string;
  /** The invoice, credit note or payment it records. */
  entityId: string;
  /** YYYY-MM-DD: the fiscal date (issue or payment date), the FEC's EcritureDate. */
  fiscalDate: string;
  /** When the chain recorded it, after which it can never change: the FEC's ValidDate. */
  recordedAt: Date;
}

/** A customer or supplier: CompAuxNum and CompAuxLib. */
export interface Party {
  code: string;
  name: string;
}

/** VAT of one rate (`rate` null when the split is unknown: one line for the whole VAT). */
export interface VatShare {
  rate: string | null;
  taxable: Decimal;
  tax: Decimal;
}

interface FactBase {
  entry: EntryRef;
  direction: 'outgoing' | 'incoming';
  /** PieceRef and PieceDate. */
  pieceRef: string;
  pieceDate: string;
  party: Party;
}

export interface DocumentFact extends FactBase {
  kind: 'invoice' | 'credit_note';
  /** For a credit note, the invoice it credits. */
  invoiceNumber: string | null;
  totalHt: Decimal;
  totalTax: Decimal;
  totalTtc: Decimal;
  vat: VatShare[];
}

export interface PaymentFact extends FactBase {
  kind: 'payment';
  invoiceNumber: string;
  amount: Decimal;
}

/** What one ledger entry means for the accounts, read from its data (fec-source.ts). */
export type AccountingFact = DocumentFact | PaymentFact;

export interface Posting {
  account: { number: string; label: string };
  party: Party | null;
  label: string;
  debit: Decimal;
  credit: Decimal;
}

/** One accounting entry (écriture): its lines balance. */
export interface Ecriture {
  entry: EntryRef;
  journal: { code: string; label: string };
  pieceRef: string;
  pieceDate: string;
  label: string;
  postings: Posting[];
}

const ZERO = new Decimal(0);

/** CompAuxNum: the party's SIRET, or a stable code from its name when it has none (a consumer). */
export function partyOf(siret: string | null, name: string): Party {
  if (siret) return { code: siret, name };
  const digest = createHash('sha256').update(name.trim().toUpperCase(), 'utf8').digest('hex');
  return { code: `N${digest.slice(0, 12).toUpperCase()}`, name };
}

const rateLabel = (rate: string | null) => (rate === null ? 'TVA' : `TVA ${rate.replace('.', ',')} %`);

/**
 * The postings of one fact under the rules in force on its date (DECISIONS.md "Fiscal ledger"):
 * a sale debits customers with the total including VAT and credits revenue (excluding VAT) and VAT
 * collected per rate; a purchase mirrors it on suppliers, purchases and deductible VAT; a credit
 * note reverses its invoice's postings; a payment moves the amount between the bank and the party.
 * Negative amounts change sides and zero lines are left out, so every line is positive.
 */
export function postingsFor(fact: AccountingFact, rules: AppliedRules): Ecriture {
  const { accounts, journals } = rules;
  const line = (account: Posting['account'], party: Party | null, label: string, debit: Decimal, credit: Decimal) => ({
    account,
    party,
    label,
    debit,
    credit,
  });
  let journal = journals.bank;
  let label: string;
  let postings: Posting[];
  if (fact.kind === 'payment') {
    label = `Règlement facture ${fact.invoiceNumber} ${fact.party.name}`;
    postings =
      fact.direction === 'outgoing'
        ? [
            line(accounts.bank, null, label, fact.amount, ZERO),
            line(accounts.customers, fact.party, label, ZERO, fact.amount),
          ]
        : [
            line(accounts.suppliers, fact.party, label, fact.amount, ZERO),
            line(accounts.bank, null, label, ZERO, fact.amount),
          ];
  } else {
    const sale = fact.direction === 'outgoing';
    journal = sale ? journals.sales : journals.purchases;
    label =
      fact.kind === 'invoice'
        ? `Facture ${fact.pieceRef} ${fact.party.name}`
        : `Avoir ${fact.pieceRef} sur facture ${fact.invoiceNumber ?? ''} ${fact.party.name}`;
    const vatAccount = sale ? accounts.vat_collected : accounts.vat_deductible;
    const vat = fact.vat.map((share) => ({
      account: vatAccount,
      amount: share.tax,
      label: `${label} ${rateLabel(share.rate)}`,
    }));
    // Written as an invoice (sale: party debit, revenue and VAT credit), then turned round for a
    // purchase and once more for a credit note.
    const partyLine = line(sale ? accounts.customers : accounts.suppliers, fact.party, label, fact.totalTtc, ZERO);
    const others = [
      line(sale ? accounts.revenue : accounts.purchases, null, label, ZERO, fact.totalHt),
      ...vat.map((v) => line(v.account, null, v.label, ZERO, v.amount)),
    ];
    const flip = !sale !== (fact.kind === 'credit_note');
    postings = [partyLine, ...others].map((p) => (flip ? { ...p, debit: p.credit, credit: p.debit } : p));
  }
  return {
    entry: fact.entry,
    journal,
    pieceRef: fact.pieceRef,
    pieceDate: fact.pieceDate,
    label,
    postings: postings.map(positive).filter((p) => !p.debit.isZero() || !p.credit.isZero()),
  };
}

/** A negative amount is the same amount on the other side. */
function positive(p: Posting): Posting {
  const net = p.debit.minus(p.credit);
  return net.isNegative() ? { ...p, debit: ZERO, credit: net.negated() } : { ...p, debit: net, credit: ZERO };
}
