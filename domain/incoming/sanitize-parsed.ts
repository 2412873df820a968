import { Decimal } from 'decimal.js';
import { cleanText as clean } from '../shared/clean-text.js';
import { IncomingParseError, type ParsedInvoice, type ParsedLine, type ParsedParty } from './parsed-invoice.js';

/**
 * What a file says, made fit for the database before anything is written: PostgreSQL refuses a
 * NUL in text, an unpaired surrogate in jsonb, 30 February in a date, 10^16 in numeric(18,2) and an
 * index entry over about 2.7 kB, and any of those refused inside a transaction undoes it all.
 * Values that identify or price the invoice (its number, dates, totals) must be right or the file
 * is refused with a message saying which; descriptive text is cleaned and shortened.
 */

/** Identifiers: an invoice number (French numbering allows far less), a line id, a code. */
const MAX_IDENTIFIER = 200;
/** Names, descriptions and other free text. */
const MAX_TEXT = 1000;
/** numeric(18,2): 16 digits before the point. */
const AMOUNT_LIMIT = new Decimal('1e16');
/** Line quantities, prices and rates are kept as text in `lines` (jsonb) and shown as JSON numbers. */
const MAX_LINE_DIGITS = 18;
const MAX_LINE_DECIMALS = 6;

/** Text cleaned for the database (no NUL, no lone surrogate), trimmed and cut to `max` characters. */
export const cleanText = (value: string | null | undefined, max = MAX_TEXT): string | null => clean(value, max);

/** `YYYY-MM-DD` that names a real day (years 1000 to 9999); refused when it does not; null in another format. */
export function calendarDate(value: string | null, term: string): string | null {
  if (value === null) return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null; // another date format: not read, as before sanitising
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1000 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
    throw new IncomingParseError(`${term} ${value} is not a day of the calendar`);
  return value;
}

/** A decimal amount that fits numeric(18,2) once rounded to cents; refused when it does not; null when not a decimal. */
export function amount(value: string | null, term: string): string | null {
  if (value === null) return null;
  const match = /^[+-]?\d{1,100}(\.\d{0,100})?$/.exec(value.trim());
  if (!match) return null; // not a plain decimal: not read
  if (new Decimal(value.trim()).toDecimalPlaces(2).abs().gte(AMOUNT_LIMIT))
    throw new IncomingParseError(`${term} ${cleanText(value, 40)} is out of range`);
  return value.trim();
}

/** A line's decimal figure: kept when it is a plain decimal of sensible size, else dropped (null). */
function lineFigure(value: string | null): string | null {
  if (value === null) return null;
  const trimmed = value.trim();
  const pattern = new RegExp(`^[+-]?\\d{1,${MAX_LINE_DIGITS}}(\\.\\d{0,${MAX_LINE_DECIMALS}})?$`);
  return pattern.test(trimmed) ? trimmed : null;
}

function identifier(value: string | null, term: string): string | null {
  const clean = cleanText(value, Number.POSITIVE_INFINITY);
  if (clean !== null && clean.length > MAX_IDENTIFIER)
    throw new IncomingParseError(`${term} is longer than ${MAX_IDENTIFIER} characters`);
  return clean;
}

const code = (value: string | null, max: number) => {
  const clean = cleanText(value, max + 1);
  return clean !== null && clean.length <= max ? clean : null;
};

const party = (p: ParsedParty): ParsedParty => ({
  name: cleanText(p.name),
  siret: p.siret !== null && /^\d{14}$/.test(p.siret) ? p.siret : null,
  vatNumber: code(p.vatNumber, 40),
  country: code(p.country, 3),
});

const line = (l: ParsedLine): ParsedLine => ({
  lineNumber: cleanText(l.lineNumber, MAX_IDENTIFIER) ?? '',
  description: cleanText(l.description),
  quantity: lineFigure(l.quantity),
  unitCode: code(l.unitCode, 10),
  unitPrice: lineFigure(l.unitPrice),
  netAmount: lineFigure(l.netAmount),
  vatCategory: code(l.vatCategory, 10),
  vatRate: lineFigure(l.vatRate),
});

/** The parsed invoice fit to store; throws IncomingParseError naming the first value that is not. */
export function sanitizeParsed(parsed: ParsedInvoice): ParsedInvoice {
  return {
    format: parsed.format,
    typeCode: code(parsed.typeCode, 10),
    number: identifier(parsed.number, 'the invoice number (BT-1)'),
    issueDate: calendarDate(cleanText(parsed.issueDate, 40), 'the issue date (BT-2)'),
    dueDate: calendarDate(cleanText(parsed.dueDate, 40), 'the due date (BT-9)'),
    currency: code(parsed.currency, 3),
    seller: party(parsed.seller),
    buyer: party(parsed.buyer),
    totals: {
      lineTotal: amount(cleanText(parsed.totals.lineTotal, 100), 'the line total (BT-106)'),
      taxBasisTotal: amount(cleanText(parsed.totals.taxBasisTotal, 100), 'the total without VAT (BT-109)'),
      taxTotal: amount(cleanText(parsed.totals.taxTotal, 100), 'the VAT total (BT-110)'),
      grandTotal: amount(cleanText(parsed.totals.grandTotal, 100), 'the total with VAT (BT-112)'),
      duePayable: amount(cleanText(parsed.totals.duePayable, 100), 'the amount due (BT-115)'),
    },
    lines: parsed.lines.map(line),
  };
}
