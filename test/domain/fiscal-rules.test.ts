import test from 'ava';
import { Decimal } from '../../domain/billing/money.js';
import { type DocumentFact, partyOf, postingsFor } from '../../domain/ledger/fec-postings.js';
import { type RuleVersion, ruleBook, ruleInForce } from '../../domain/ledger/fiscal-rules.js';

const version = (key: string, n: number, effectiveFrom: string, value: unknown = n): RuleVersion => ({
  id: `${key}#${n}`,
  key,
  version: n,
  value,
  description: '',
  effectiveFrom,
  source: n === 1 ? 'default' : 'tenant',
  createdAt: new Date(0),
  createdBy: null,
});

test('the version in force: latest effective_from on or before the day, the highest version on a tie', (t) => {
  const versions = [
    version('a.b', 1, '1900-01-01'),
    version('a.b', 2, '2027-01-01'),
    version('a.b', 3, '2026-06-01'),
    version('a.b', 4, '2026-06-01'),
  ];
  const at = (date: string) => ruleInForce(versions, 'a.b', date)?.version;
  t.is(at('2026-05-31'), 1);
  t.is(at('2026-06-01'), 4, 'v4 corrects v3 from the same day');
  t.is(at('2026-12-31'), 4);
  t.is(at('2027-01-01'), 2, 'a version recorded earlier with a later date still takes over on its date');
  t.is(ruleInForce(versions, 'a.b', '1899-12-31'), undefined);
  t.is(ruleInForce(versions, 'c.d', '2026-01-01'), undefined);
});

const ACCOUNTS = Object.fromEntries(
  ['customers', 'revenue', 'vat_collected', 'bank', 'suppliers', 'purchases', 'vat_deductible'].map((k, i) => [
    k,
    { number: String(100 + i), label: k },
  ]),
);
const JOURNALS = {
  sales: { code: 'VT', label: 'V' },
  purchases: { code: 'AC', label: 'A' },
  bank: { code: 'BQ', label: 'B' },
};
const rules = ruleBook([
  version('fec.accounts', 1, '1900-01-01', ACCOUNTS),
  version('fec.journals', 1, '1900-01-01', JOURNALS),
  version('vat.rounding', 1, '1900-01-01', { mode: 'per_rate' }),
])('2025-01-01');

const document = (kind: DocumentFact['kind'], direction: DocumentFact['direction']): DocumentFact => ({
  kind,
  direction,
  entry: {
    id: 'e',
    sequenceNumber: 1,
    subTenantId: null,
    entryType: kind === 'invoice' ? 'invoice_created' : 'credit_note_issued',
    entityId: 'x',
    fiscalDate: '2025-01-01',
    recordedAt: new Date(),
  },
  pieceRef: 'P',
  pieceDate: '2025-01-01',
  party: partyOf(null, 'Jean Dupont'),
  invoiceNumber: null,
  totalHt: new Decimal('100.00'),
  totalTax: new Decimal('20.00'),
  totalTtc: new Decimal('120.00'),
  vat: [{ rate: '20.00', taxable: new Decimal('100.00'), tax: new Decimal('20.00') }],
});

const lines = (fact: DocumentFact) =>
  postingsFor(fact, rules).postings.map((p) => [p.account.label, p.debit.toFixed(2), p.credit.toFixed(2)]);

test('postings: a sale, a purchase and their credit notes each turn the other way round', (t) => {
  t.deepEqual(lines(document('invoice', 'outgoing')), [
    ['customers', '120.00', '0.00'],
    ['revenue', '0.00', '100.00'],
    ['vat_collected', '0.00', '20.00'],
  ]);
  t.deepEqual(lines(document('credit_note', 'outgoing')), [
    ['customers', '0.00', '120.00'],
    ['revenue', '100.00', '0.00'],
    ['vat_collected', '20.00', '0.00'],
  ]);
  t.deepEqual(lines(document('invoice', 'incoming')), [
    ['suppliers', '0.00', '120.00'],
    ['purchases', '100.00', '0.00'],
    ['vat_deductible', '20.00', '0.00'],
  ]);
  t.deepEqual(lines(document('credit_note', 'incoming')), [
    ['suppliers', '120.00', '0.00'],
    ['purchases', '0.00', '100.00'],
    ['vat_deductible', '0.00', '20.00'],
  ]);
  t.is(postingsFor(document('invoice', 'incoming'), rules).journal.code, 'AC');
});

test('postings: a zero VAT line is left out, a negative amount changes side; a party without SIRET gets a stable code', (t) => {
  const exempt = { ...document('invoice', 'outgoing'), totalTax: new Decimal(0), totalTtc: new Decimal('100.00') };
  exempt.vat = [{ rate: '0.00', taxable: new Decimal('100.00'), tax: new Decimal(0) }];
  t.deepEqual(lines(exempt), [
    ['customers', '100.00', '0.00'],
    ['revenue', '0.00', '100.00'],
  ]);
  const negative = { ...exempt, totalHt: new Decimal('-10.00'), totalTtc: new Decimal('-10.00') };
  t.deepEqual(lines(negative), [
    ['customers', '0.00', '10.00'],
    ['revenue', '10.00', '0.00'],
  ]);
  t.is(partyOf(null, ' jean dupont').code, partyOf(null, 'JEAN DUPONT').code);
  t.regex(partyOf(null, 'Jean Dupont').code, /^N[0-9A-F]{12}$/);
  t.is(partyOf('44306184100047', 'X').code, '44306184100047');
});
