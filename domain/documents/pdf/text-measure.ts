import type { FontProgram } from './font-program.js';
import { REPLACEMENT_CHARACTER } from './fonts.js';

/**
 * Makes a caller's text printable with this font: NFC (so "e" + combining acute is the one glyph
 * é), tabs as spaces, other control characters dropped, and a character without a glyph shown as
 * U+FFFD. Line breaks are kept for `wrapText`.
 */
export function cleanText(program: FontProgram, text: string): string {
  if (isPrintable(program, text)) return text;
  let out = '';
  for (const char of text.normalize('NFC')) {
    const codePoint = char.codePointAt(0)!;
    if (codePoint === 0x0a) out += '\n';
    else if (codePoint === 0x09) out += ' ';
    else if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) continue;
    else if (!program.hasGlyph(codePoint)) out += String.fromCodePoint(REPLACEMENT_CHARACTER);
    else out += char;
  }
  return out;
}

/**
 * Whether `cleanText` would return the text as it is: no control character, a glyph for every
 * character, and nothing NFC could change (every UTF-16 unit below U+0300, where no character
 * composes or decomposes under NFC). Most of an invoice's texts, checked without a copy.
 */
function isPrintable(program: FontProgram, text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x20 || unit >= 0x300 || (unit >= 0x7f && unit < 0xa0) || !program.hasGlyph(unit)) return false;
  }
  return true;
}

/** The width in points of cleaned text at a font size. */
export function textWidth(program: FontProgram, text: string, size: number): number {
  let micro = 0;
  for (let i = 0; i < text.length; i++) {
    const codePoint = text.codePointAt(i)!;
    if (codePoint > 0xffff) i++;
    micro += program.advanceMicro(codePoint);
  }
  return (micro * size) / 1_000_000;
}

/**
 * Breaks cleaned text into lines no wider than `maxWidth`: at its own line breaks, then between
 * words, and inside a word only when the word alone is too wide (a long reference or URL).
 */
export function wrapText(program: FontProgram, text: string, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  const spaceWidth = textWidth(program, ' ', size);
  for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
    let line = '';
    let width = 0;
    for (const word of paragraph.split(' ')) {
      const wordWidth = textWidth(program, word, size);
      if (line !== '' && width + spaceWidth + wordWidth <= maxWidth) {
        line += ` ${word}`;
        width += spaceWidth + wordWidth;
        continue;
      }
      if (line !== '') lines.push(line);
      if (wordWidth <= maxWidth) {
        line = word;
        width = wordWidth;
        continue;
      }
      const pieces = breakWord(program, word, size, maxWidth);
      lines.push(...pieces.slice(0, -1));
      line = pieces[pieces.length - 1];
      width = textWidth(program, line, size);
    }
    lines.push(line);
  }
  return lines;
}

function breakWord(program: FontProgram, word: string, size: number, maxWidth: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  let width = 0;
  for (const char of word) {
    const charWidth = (program.advance(char.codePointAt(0)!) * size) / 1000;
    if (piece !== '' && width + charWidth > maxWidth) {
      pieces.push(piece);
      piece = '';
      width = 0;
    }
    piece += char;
    width += charWidth;
  }
  pieces.push(piece);
  return pieces;
}
