import test from 'ava';
import {
  countryName,
  formatAmount,
  formatDate,
  formatDecimal,
  formatRate,
} from '../../domain/documents/pdf/french-format.js';

test('decimals are regrouped the French way without passing through a float', (t) => {
  t.is(formatDecimal('1234567.5', 2), '1 234 567,50');
  t.is(formatDecimal('-1234.00', 2), '-1 234,00');
  t.is(formatDecimal('-0.00', 2), '0,00');
  t.is(formatDecimal('0.1000', 2), '0,10');
  t.is(formatDecimal('12.3456', 2), '12,3456');
  t.is(formatDecimal('2.0000', 0), '2');
  t.is(formatDecimal('1.5000', 0), '1,5');
  t.is(formatDecimal('9007199254740993.01', 2), '9 007 199 254 740 993,01', 'beyond float precision');
  t.is(formatDecimal('00042', 0), '42');
  t.is(formatDecimal('not a number', 2), 'not a number');
});

test('amounts, rates, dates and countries', (t) => {
  t.is(formatAmount('1500.00', 'EUR'), '1 500,00 €');
  t.is(formatAmount('1500.00', 'USD'), '1 500,00 USD');
  t.is(formatRate('20.00'), '20 %');
  t.is(formatRate('5.50'), '5,5 %');
  t.is(formatRate(null), '—');
  t.is(formatDate('2026-01-15'), '15/01/2026');
  t.is(countryName('FR'), 'France');
  t.is(countryName('de'), 'Allemagne');
  t.is(countryName('??'), '??');
});
