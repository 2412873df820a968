import test from 'ava';
import { buyerParty, sellerParty, splitAddress } from '../../domain/billing/billing-parties.js';
import { addMonths, lastDay, parisDay, parisMonth } from '../../domain/billing/billing-period.js';
import { billingFigures, discountTierOf } from '../../domain/billing/billing-totals.js';

const money = (f: ReturnType<typeof billingFigures>) => ({
  gross: f.grossAmount.toFixed(2),
  discount: f.discountAmount.toFixed(2),
  ht: f.totalHt.toFixed(2),
  vat: f.totalVat.toFixed(2),
  ttc: f.totalTtc.toFixed(2),
});

test('the tier is reached by more than 1,000, 5,000 and 10,000 invoices, never at the threshold', (t) => {
  const rates = [0, 1, 1000, 1001, 5000, 5001, 10000, 10001, 250000].map((n) => discountTierOf(n)?.rate ?? 0);
  t.deepEqual(rates, [0, 0, 0, 10, 10, 20, 20, 30, 30]);
});

test('the tier reached discounts every invoice of the month, and only the invoices', (t) => {
  // 5,000 invoices: tier 10 % on all 5,000 (200.00 → 20.00 off), not 10 % on the 4,000 past 1,000.
  t.deepEqual(money(billingFigures({ invoices: 5000, signatures: 10, creditNotes: 100 })), {
    gross: '216.00', // 200.00 + 12.00 + 4.00
    discount: '20.00',
    ht: '196.00',
    vat: '39.20',
    ttc: '235.20',
  });
  // Signatures and credit notes alone reach no tier, whatever their number.
  t.deepEqual(money(billingFigures({ invoices: 0, signatures: 2000, creditNotes: 20000 })), {
    gross: '3200.00',
    discount: '0.00',
    ht: '3200.00',
    vat: '640.00',
    ttc: '3840.00',
  });
});

test('one invoice: VAT rounded half up to the cent', (t) => {
  // 0.04 × 20 % = 0.008 → 0.01
  t.deepEqual(money(billingFigures({ invoices: 1, signatures: 0, creditNotes: 0 })), {
    gross: '0.04',
    discount: '0.00',
    ht: '0.04',
    vat: '0.01',
    ttc: '0.05',
  });
});

test('Paris months: edges in UTC, summer and winter time, the year boundary', (t) => {
  t.is(parisMonth(new Date('2026-09-30T21:59:59Z')), '2026-09');
  t.is(parisMonth(new Date('2026-09-30T22:00:00Z')), '2026-10');
  t.is(parisMonth(new Date('2026-12-31T23:00:00Z')), '2027-01');
  t.is(parisDay(new Date('2026-10-31T23:30:00Z')), '2026-11-01');
  t.is(addMonths('2026-01', -1), '2025-12');
  t.is(addMonths('2026-12', 1), '2027-01');
  t.is(addMonths('2026-11', -11), '2025-12');
  t.is(lastDay('2028-02'), '2028-02-29');
});

test('the seller: the PUBLISHER_* settings; development stands in outside production only', (t) => {
  const publisher = {
    name: 'Opérateur SAS',
    siren: '732829320',
    address: '1 rue de la Paix, 75002 Paris',
    vatNumber: null,
    signatory: null,
    contact: null,
    softwareName: null,
  };
  t.like(sellerParty({ nodeEnv: 'production', publisher }), {
    name: 'Opérateur SAS',
    vatNumber: 'FR44732829320',
    legalId: '732829320',
    address: { line1: '1 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' },
  });
  t.is(sellerParty({ nodeEnv: 'production', publisher: { ...publisher, vatNumber: 'FR00123' } }).vatNumber, 'FR00123');
  const missing = { ...publisher, name: null, address: null };
  const err = t.throws(() => sellerParty({ nodeEnv: 'production', publisher: missing }));
  t.like(err, {
    code: 'SERVICE_UNAVAILABLE',
    message: 'Set PUBLISHER_NAME, PUBLISHER_ADDRESS: the billing invoices name the operator as their seller.',
  });
  t.like(sellerParty({ nodeEnv: 'development', publisher: missing }), {
    name: 'Opérateur e-invoice (développement)',
    legalId: '732829320',
  });
  t.deepEqual(splitAddress('Tour Eiffel'), { line1: 'Tour Eiffel', postalCode: '', city: '' });
});

test('the buyer: the legal name, else the name; the SIREN of its SIRET as electronic address', (t) => {
  t.like(buyerParty({ name: 'Acme', legal_name: null, siret: '73282932000074', vat_number: null }), {
    name: 'Acme',
    siret: '73282932000074',
    electronicAddress: { scheme: '0225', value: '732829320' },
    address: { country: 'FR' },
  });
  t.is(buyerParty({ name: 'Acme', legal_name: 'Acme SAS', siret: null, vat_number: null }).name, 'Acme SAS');
});
