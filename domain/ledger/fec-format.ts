import type { Decimal } from '../billing/index.js';
import type { Ecriture } from './fec-postings.js';
import { parisDate } from './fiscal-rules.js';

/** The 18 fields of a FEC line, in the order article A47 A-1 of the Livre des procédures fiscales sets. */
export const FEC_COLUMNS = [
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
] as const;

export const FEC_SEPARATORS = { tab: '\t', pipe: '|' } as const;
export type FecFormat = keyof typeof FEC_SEPARATORS;

/** Records end with CR LF (A47 A-1 I 1°: "retour chariot et/ou fin de ligne"). */
const EOL = '\r\n';

/**
 * The separator must be unique and unambiguous in the file (A47 A-1 I 4°): both candidates, line
 * breaks and other control characters become spaces, whichever format is asked for.
 */
const text = (value: string): string =>
  Array.from(value, (ch) => {
    const code = ch.charCodeAt(0);
    return code < 0x20 || code === 0x7f || ch === '|' ? ' ' : ch;
  })
    .join('')
    .replace(/ {2,}/g, ' ')
    .trim();

/** Decimal comma, no thousands separator. */
const amount = (value: Decimal): string => value.toFixed(2).replace('.', ',');

/** YYYYMMDD. */
const day = (isoDate: string): string => isoDate.replaceAll('-', '');

/**
 * The FEC text: the header line, then each écriture's lines. Écritures are numbered 1..n in the
 * order given (chronological), without gaps; ValidDate is the day the ledger recorded the entry
 * (Paris time), from which it could no longer change.
 */
export function renderFec(ecritures: readonly Ecriture[], format: FecFormat): string {
  const separator = FEC_SEPARATORS[format];
  const lines: string[] = [FEC_COLUMNS.join(separator)];
  ecritures.forEach((e, index) => {
    for (const p of e.postings) {
      const fields = [
        text(e.journal.code),
        text(e.journal.label),
        String(index + 1),
        day(e.entry.fiscalDate),
        text(p.account.number),
        text(p.account.label),
        text(p.party?.code ?? ''),
        text(p.party?.name ?? ''),
        text(e.pieceRef),
        day(e.pieceDate),
        text(p.label),
        amount(p.debit),
        amount(p.credit),
        '',
        '',
        day(parisDate(e.entry.recordedAt)),
        '',
        '',
      ];
      lines.push(fields.join(separator));
    }
  });
  return lines.join(EOL) + EOL;
}

/** The period a FEC covers: a calendar year, or one month of it. Its last day is the closing date. */
export function fecPeriod(year: number, month?: number): { from: string; to: string } {
  const pad = (n: number) => String(n).padStart(2, '0');
  if (!month) return { from: `${year}-01-01`, to: `${year}-12-31` };
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return { from: `${year}-${pad(month)}-01`, to: `${year}-${pad(month)}-${pad(lastDay)}` };
}

/** `<SIREN>FEC<YYYYMMDD>.txt`, the SIREN being the first nine digits of the SIRET (A47 A-1). */
export const fecFileName = (siret: string, closingDate: string): string =>
  `${siret.slice(0, 9)}FEC${day(closingDate)}.txt`;
