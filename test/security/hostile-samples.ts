import { deflateSync, inflateSync } from 'node:zlib';
import type { DocumentParty } from '../../domain/documents/invoice-document.js';
import { renderFormat } from '../../domain/documents/render.js';
import { buildDocument, FRENCH_BUYER, frenchIds } from '../fixtures/invoice-document-builder.js';

/** Valid supplier invoices, and files crafted against the incoming-invoice parser. */

export type SampleFormat = 'ubl' | 'cii' | 'facturx';

export const OTHER_BUYER: DocumentParty = {
  ...FRENCH_BUYER,
  name: 'Quincaillerie Martin SAS',
  ...frenchIds('51234567', '0002'),
};

/** A valid invoice file as this project's writers render it. */
export function sample(number: string, format: SampleFormat, buyer: DocumentParty = FRENCH_BUYER): Buffer {
  const doc = buildDocument({
    number,
    buyer,
    lines: [{ description: 'Ramette papier', quantity: '5', unitPrice: '4.20' }],
  });
  return renderFormat(doc, format).find((f) => f.kind === format)!.content;
}

/** Replaces the first occurrence of a text in a file, checking it was there. */
export function edit(file: Buffer, from: string | RegExp, to: string): Buffer {
  const text = file.toString('latin1');
  const edited = text.replace(from, to);
  if (edited === text) throw new Error(`fixture edit: ${from} not found`);
  return Buffer.from(edited, 'latin1');
}

/**
 * The Factur-X file with its embedded XML's `/Length` written as an indirect object after the
 * stream (`/Length 21 0 R`, as many PDF producers write it): a valid PDF.
 */
export function withIndirectLength(pdf: Buffer): Buffer {
  const text = pdf.toString('latin1');
  const match = /\/Type \/EmbeddedFile [\s\S]*?\/Length (\d+) >>/.exec(text);
  if (!match) throw new Error('fixture: no embedded file stream');
  const edited = text.replace(match[0], match[0].replace(`/Length ${match[1]}`, '/Length 21 0 R'));
  const eof = edited.lastIndexOf('%%EOF');
  return Buffer.from(`${edited.slice(0, eof)}21 0 obj\n${match[1]}\nendobj\n${edited.slice(eof)}`, 'latin1');
}

/**
 * The Factur-X file with its embedded XML stored uncompressed (no /Filter): mutations of it reach
 * the XML reader through the PDF reader instead of failing decompression.
 */
export function uncompressedFacturx(number: string): Buffer {
  const text = sample(number, 'facturx').toString('latin1');
  const match = /(\/Type \/EmbeddedFile [^\n]*?)\/Filter \/FlateDecode ([^\n]*?)\/Length (\d+) >>\s*stream\n/.exec(
    text,
  );
  if (!match) throw new Error('fixture: no embedded file stream');
  const start = match.index + match[0].length;
  const length = Number(match[3]);
  const xml = inflateSync(Buffer.from(text.slice(start, start + length), 'latin1')).toString('latin1');
  return Buffer.from(
    `${text.slice(0, match.index)}${match[1]}${match[2]}/Length ${xml.length} >>\nstream\n${xml}${text.slice(start + length)}`,
    'latin1',
  );
}

/**
 * The Factur-X file with its file specification moved into a compressed object stream (PDF 1.5)
 * whose `/Length` is an indirect object: what many producers write, and the reader must find.
 */
export function packedFacturx(number: string): Buffer {
  const text = sample(number, 'facturx').toString('latin1');
  const match = /\n(\d+) 0 obj\s*(<< \/Type \/Filespec [^\n]*>>)\s*endobj\n/.exec(text);
  if (!match) throw new Error('fixture: no file specification');
  const prefix = `${match[1]} 0 `;
  const data = deflateSync(Buffer.from(`${prefix}${match[2]}`, 'latin1'));
  const packed =
    `40 0 obj\n<< /Type /ObjStm /N 1 /First ${prefix.length} /Filter /FlateDecode /Length 41 0 R >>\nstream\n` +
    `${data.toString('latin1')}\nendstream\nendobj\n41 0 obj\n${data.length}\nendobj\n`;
  const without = text.replace(match[0], '\n');
  const eof = without.lastIndexOf('%%EOF');
  return Buffer.from(`${without.slice(0, eof)}${packed}${without.slice(eof)}`, 'latin1');
}

/** 90 bytes: an object stream claiming 999,999,999 objects (the reader looped that many times). */
export const OBJECT_STREAM_BOMB = Buffer.from(
  '%PDF-1.5\n1 0 obj<</Type/ObjStm/N 999999999/First 0/Length 3>>stream\n1 0\nendstream\nendobj\n',
  'latin1',
);

const FIVE_MB = 5 * 1024 * 1024;
const fill = (head: string, unit: string, tail = '') =>
  Buffer.from(head + unit.repeat(Math.ceil((FIVE_MB - head.length - tail.length) / unit.length)) + tail, 'latin1');

/** 5 MB inputs on which a scan restarted at each position is quadratic. */
export const QUADRATIC_INPUTS: { name: string; bytes: Buffer }[] = [
  { name: 'an XML start tag of 5 MB with no =', bytes: fill('<Invoice ', 'a', '>') },
  { name: 'an XML start tag of many names without =', bytes: fill('<Invoice', ' a', '>') },
  { name: 'a PDF of many "1 0 obj" without endobj', bytes: fill('%PDF-1.7\n', '1 0 obj\n') },
  { name: 'a PDF of one run of 5 MB of digits (object headers)', bytes: fill('%PDF-1.7\n', '1', ' obj') },
  {
    name: 'a PDF of many streams without endstream',
    bytes: fill('%PDF-1.7\n', '1 0 obj\n<< /Filter /FlateDecode >>\nstream\nxx\nendobj\n'),
  },
  {
    name: 'a PDF of "/EF <<" without ">>"',
    bytes: fill('%PDF-1.7\n1 0 obj\n<< /Type /Filespec ', '/EF << ', '\nendobj\n'),
  },
  {
    name: 'a PDF of "/F (" without ")"',
    bytes: fill('%PDF-1.7\n1 0 obj\n<< /EF << /F 2 0 R >> ', '/F (', '\nendobj\n'),
  },
];
