import { pdfNumber } from './pdf-serialize.js';

/** Characters of Windows-1252 above 0x7F that are not Latin-1 at the same code (PDF's WinAnsiEncoding). */
const WIN_ANSI_EXTRA: Record<string, number> = {
  '€': 0x80,
  '‚': 0x82,
  ƒ: 0x83,
  '„': 0x84,
  '…': 0x85,
  ˆ: 0x88,
  Š: 0x8a,
  '‹': 0x8b,
  Œ: 0x8c,
  Ž: 0x8e,
  '‘': 0x91,
  '’': 0x92,
  '“': 0x93,
  '”': 0x94,
  '•': 0x95,
  '–': 0x96,
  '—': 0x97,
  '˜': 0x98,
  š: 0x9a,
  '›': 0x9b,
  œ: 0x9c,
  ž: 0x9e,
  Ÿ: 0x9f,
};

/**
 * Text in WinAnsiEncoding, for the standard Helvetica fonts every reader has: French and other
 * Latin names are kept; a character outside the encoding loses its accents, or becomes `?`.
 */
export function winAnsi(text: string): Buffer {
  const bytes: number[] = [];
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) bytes.push(code);
    else if (char in WIN_ANSI_EXTRA) bytes.push(WIN_ANSI_EXTRA[char]);
    else {
      const base = char.normalize('NFD').replace(/\p{M}/gu, '');
      const first = base.codePointAt(0) ?? 0;
      bytes.push(base.length > 0 && first >= 0x20 && first <= 0x7e ? first : 0x3f);
    }
  }
  return Buffer.from(bytes);
}

/** Helvetica's average advance, in em, used to shrink a line until it fits its box. */
const AVERAGE_ADVANCE = 0.56;

export interface AppearanceText {
  name: string;
  date: string;
  /** Whether a drawn image fills the upper part (as /Im0); otherwise the name is written there in italics. */
  drawn: { width: number; height: number } | null;
}

/** The fonts an appearance names: /F1 Helvetica, /F2 Helvetica-Bold, /F3 Helvetica-Oblique. */
export const APPEARANCE_FONTS = { F1: 'Helvetica', F2: 'Helvetica-Bold', F3: 'Helvetica-Oblique' } as const;

/**
 * The content stream of a signature block of `width` × `height` points: a thin frame; the drawn
 * signature (scaled into the upper part, its proportions kept) or the typed name in italics; then
 * three lines: the signer's name, "Signé électroniquement", the date.
 */
export function appearanceContent(width: number, height: number, text: AppearanceText): string {
  const pad = Math.min(4, width / 20, height / 20);
  const inner = width - 2 * pad;
  const size = Math.max(3, Math.min(9, height * 0.13));
  const leading = size * 1.2;
  const ops: string[] = [
    `q 0.55 0.55 0.6 RG 0.5 w 0.25 0.25 ${pdfNumber(width - 0.5)} ${pdfNumber(height - 0.5)} re S Q`,
  ];
  const line = (font: string, wanted: number, y: number, value: string) => {
    const bytes = winAnsi(value);
    const fitted = Math.max(2, Math.min(wanted, inner / Math.max(1, bytes.length * AVERAGE_ADVANCE)));
    ops.push(
      `BT /${font} ${pdfNumber(fitted)} Tf 0.1 0.1 0.15 rg ${pdfNumber(pad)} ${pdfNumber(y)} Td <${bytes.toString('hex')}> Tj ET`,
    );
  };
  line('F1', size * 0.9, pad + 0.2 * leading, text.date);
  line('F1', size * 0.9, pad + 1.2 * leading, 'Signé électroniquement');
  line('F2', size, pad + 2.2 * leading, text.name);
  const areaBottom = pad + 3.3 * leading;
  const areaHeight = height - pad - areaBottom;
  if (areaHeight > 4) {
    if (text.drawn) {
      const scale = Math.min(inner / text.drawn.width, areaHeight / text.drawn.height);
      const w = text.drawn.width * scale;
      const h = text.drawn.height * scale;
      ops.push(`q ${pdfNumber(w)} 0 0 ${pdfNumber(h)} ${pdfNumber(pad)} ${pdfNumber(areaBottom)} cm /Im0 Do Q`);
    } else line('F3', areaHeight * 0.7, areaBottom + areaHeight * 0.2, text.name);
  }
  return ops.join('\n');
}
