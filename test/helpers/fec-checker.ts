/**
 * An independent FEC checker (article A47 A-1 of the Livre des procédures fiscales), written from
 * the legal text and nothing else: it imports no code of the service, only reads the file.
 * Amounts are compared in cents with BigInt, never as floats.
 */

/** The 18 fields, with their legal names, in their legal order. */
const LEGAL_COLUMNS = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
];

export interface FecCheckOptions {
  /** The field separator: tab (the default) or pipe. */
  separator?: '\t' | '|';
  /** First and last day of the period (YYYYMMDD). */
  period: { from: string; to: string };
  /** The file name to check against `<SIREN>FEC<closing date>.txt`. */
  fileName?: string;
  /** The SIREN the name must carry. */
  siren?: string;
  /** Journal codes allowed (VT and BQ by default). */
  journals?: readonly string[];
}

export interface FecCheckReport {
  errors: string[];
  /** Posting lines (the header excluded). */
  lines: number;
  /** Distinct EcritureNum. */
  entries: number;
  /** Sum of debits and of credits, in cents. */
  debit: bigint;
  credit: bigint;
}

/** A real calendar day written YYYYMMDD. */
function isDay(value: string): boolean {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** "1234,50" → 123450n; null when not a plain amount with a decimal comma (no point, no thousands separator). */
function cents(value: string, signed = false): bigint | null {
  const m = (signed ? /^(-?)(\d+)(?:,(\d{1,2}))?$/ : /^()(\d+)(?:,(\d{1,2}))?$/).exec(value);
  if (!m) return null;
  const abs = BigInt(m[2]) * 100n + BigInt((m[3] ?? '0').padEnd(2, '0'));
  return m[1] === '-' ? -abs : abs;
}

export function checkFec(content: string, options: FecCheckOptions): FecCheckReport {
  const sep = options.separator ?? '\t';
  const journals = new Set(options.journals ?? ['VT', 'BQ']);
  const errors: string[] = [];
  const report: FecCheckReport = { errors, lines: 0, entries: 0, debit: 0n, credit: 0n };

  if (options.fileName !== undefined) {
    const m = /^(\d{9})FEC(\d{8})\.txt$/.exec(options.fileName);
    if (!m) errors.push(`file name ${options.fileName} is not <SIREN>FEC<YYYYMMDD>.txt`);
    else {
      if (m[2] !== options.period.to)
        errors.push(`file name date ${m[2]} is not the closing date ${options.period.to}`);
      if (options.siren && m[1] !== options.siren) errors.push(`file name SIREN ${m[1]} is not ${options.siren}`);
    }
  }

  const records = content.split(/\r\n|\n|\r/);
  if (records[records.length - 1] === '') records.pop();
  if (records.length === 0) return { ...report, errors: ['the file is empty'] };
  const header = records[0].split(sep);
  if (header.length !== 18 || header.some((name, i) => name !== LEGAL_COLUMNS[i])) {
    errors.push(`header is not the 18 legal fields in order: ${records[0]}`);
  }

  const sums = new Map<string, { debit: bigint; credit: bigint; journal: string; date: string }>();
  const order: string[] = [];
  records.slice(1).forEach((record, i) => {
    const at = `line ${i + 2}`;
    const f = record.split(sep);
    if (f.length !== 18) {
      errors.push(`${at}: ${f.length} fields instead of 18`);
      return;
    }
    report.lines += 1;
    const [journal, journalLib, num, date, account, accountLib, auxNum, auxLib, pieceRef, pieceDate, label] = f;
    const [debitText, creditText, , dateLet, validDate, foreignAmount, currency] = f.slice(11);
    if (!journals.has(journal)) errors.push(`${at}: journal ${journal} is not one of ${[...journals].join(', ')}`);
    for (const [name, value] of [
      ['JournalLib', journalLib],
      ['CompteLib', accountLib],
      ['PieceRef', pieceRef],
      ['EcritureLib', label],
    ]) {
      if (value.trim() === '') errors.push(`${at}: ${name} is empty`);
    }
    if (!/^\d{3}/.test(account)) errors.push(`${at}: CompteNum ${account} does not start with three digits`);
    if ((auxNum === '') !== (auxLib === '')) errors.push(`${at}: CompAuxNum and CompAuxLib go together`);
    for (const [name, value] of [
      ['EcritureDate', date],
      ['PieceDate', pieceDate],
      ['ValidDate', validDate],
    ]) {
      if (!isDay(value)) errors.push(`${at}: ${name} ${value} is not a YYYYMMDD date`);
    }
    if (dateLet !== '' && !isDay(dateLet)) errors.push(`${at}: DateLet ${dateLet} is not a YYYYMMDD date`);
    if (isDay(date) && (date < options.period.from || date > options.period.to)) {
      errors.push(`${at}: EcritureDate ${date} is outside ${options.period.from}-${options.period.to}`);
    }
    const debit = cents(debitText);
    const credit = cents(creditText);
    if (debit === null) errors.push(`${at}: Debit ${debitText} is not an amount with a decimal comma`);
    if (credit === null) errors.push(`${at}: Credit ${creditText} is not an amount with a decimal comma`);
    if (foreignAmount !== '' && cents(foreignAmount, true) === null)
      errors.push(`${at}: Montantdevise ${foreignAmount}`);
    if (currency !== '' && !/^[A-Z]{3}$/.test(currency)) errors.push(`${at}: Idevise ${currency}`);
    if (!/^\d+$/.test(num)) errors.push(`${at}: EcritureNum ${num} is not a number`);

    let entry = sums.get(num);
    if (!entry) {
      entry = { debit: 0n, credit: 0n, journal, date };
      sums.set(num, entry);
      order.push(num);
    } else {
      if (order[order.length - 1] !== num) errors.push(`${at}: the lines of EcritureNum ${num} are not together`);
      if (entry.journal !== journal || entry.date !== date) {
        errors.push(`${at}: EcritureNum ${num} mixes journals or dates`);
      }
    }
    entry.debit += debit ?? 0n;
    entry.credit += credit ?? 0n;
    report.debit += debit ?? 0n;
    report.credit += credit ?? 0n;
  });

  order.forEach((num, i) => {
    if (num !== String(i + 1))
      errors.push(`EcritureNum ${num} comes where ${i + 1} should: the numbering is not continuous`);
    const entry = sums.get(num)!;
    if (entry.debit !== entry.credit) {
      errors.push(`EcritureNum ${num} is unbalanced: debit ${entry.debit} ≠ credit ${entry.credit} (cents)`);
    }
    const previous = i > 0 ? sums.get(order[i - 1]) : undefined;
    if (previous && previous.date > entry.date)
      errors.push(`EcritureNum ${num} comes before the date of ${order[i - 1]}`);
  });
  if (report.debit !== report.credit) errors.push(`the file is unbalanced: ${report.debit} ≠ ${report.credit} (cents)`);
  report.entries = order.length;
  return report;
}
