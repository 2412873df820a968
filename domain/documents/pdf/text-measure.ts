import type { FontProgram } from './font-program.js';
import { REPLACEMENT_CHARACTER } from './fonts.js';

/**
 * Makes a caller's text printable with this font: NFC (so "e" + combining acute is the one glyph
 * é), tabs as spaces, other control characters dropped, and a character without a glyph shown as
 * U+FFFD. Line breaks are kept for `wrapText`.
 */
export function cleanText(program: FontProgram, text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const codePoint = char.codePointAt(0)!;
    if (codePoint === 0x0a) out += '\n';
    else if (codePoint === 0x09) out += ' ';
    else if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) continue;
    else if (program.advance(codePoint) < 0) out += String.fromCodePoint(REPLACEMENT_CHARACTER);
    else out += char;
  }
  return out;
}

/** The width in points of cleaned text at a font size. */
export function textWidth(program: FontProgram, text: string, size: number): number {
  let units = 0;
  for (const char of text) units += program.advance(char.codePointAt(0)!);
  return (units * size) / 1000;
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
