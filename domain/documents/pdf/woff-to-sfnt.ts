import { inflateSync } from 'node:zlib';
import { type SfntTable, writeSfnt } from './sfnt-file.js';

const WOFF_SIGNATURE = 0x774f4646; // 'wOFF'

/**
 * Unwraps a WOFF 1.0 font into the plain TrueType (sfnt) file it packs. fontkit can read WOFF, but it
 * re-inflates a table (the whole `glyf`) on every access, which made one invoice take two seconds;
 * unwrapped once with zlib, the same font subsets in milliseconds.
 *
 * The format is W3C "WOFF File Format 1.0" §3-§5: a 44-byte header, 20-byte table entries, and each
 * table zlib-compressed unless compressing did not make it smaller.
 */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.length < 44 || woff.readUInt32BE(0) !== WOFF_SIGNATURE) throw new Error('not a WOFF 1.0 font');
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables: SfntTable[] = [];
  for (let i = 0; i < numTables; i++) {
    const entry = 44 + i * 20;
    const tag = woff.toString('latin1', entry, entry + 4);
    const offset = woff.readUInt32BE(entry + 4);
    const compLength = woff.readUInt32BE(entry + 8);
    const origLength = woff.readUInt32BE(entry + 12);
    const raw = woff.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(raw) : raw;
    if (data.length !== origLength) throw new Error(`WOFF table ${tag} does not inflate to its declared length`);
    tables.push({ tag, checksum: woff.readUInt32BE(entry + 16), data });
  }
  return writeSfnt(flavor, tables);
}
