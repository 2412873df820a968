import { sfntChecksum, writeSfnt } from './sfnt-file.js';

/**
 * A TrueType font program without its hinting: the glyphs' instructions, and the `fpgm`, `prep` and
 * `cvt ` tables they run with (OpenType spec, "glyf", "fpgm", "prep", "cvt "). Hinting snaps outlines
 * to the pixel grid of small screen sizes; PDF viewers and printers render the outlines without it,
 * and PDF/A asks for the outlines and metrics only (ISO 19005-3 6.2.11.4). DejaVu Sans is heavily
 * hinted: without it, a subset of the Latin letters is about 45 % smaller before compression, and
 * every invoice PDF carries two of them.
 *
 * The input is fontkit's subset (long `loca`, simple and composite glyphs). Outlines, metrics and
 * every other table are copied byte for byte; the table checksums and `head.checkSumAdjustment`
 * are computed anew.
 */
export function stripHinting(font: Buffer): Buffer {
  const tables = readTables(font);
  const head = tables.get('head');
  const loca = tables.get('loca');
  const glyf = tables.get('glyf');
  // indexToLocFormat 1: long offsets (the only form fontkit writes); anything else is kept as it is
  if (!head || !loca || !glyf || head.readInt16BE(50) !== 1) return font;

  const glyphCount = loca.length / 4 - 1;
  const glyphs: Buffer[] = [];
  const offsets = Buffer.alloc(loca.length);
  let offset = 0;
  for (let g = 0; g < glyphCount; g++) {
    offsets.writeUInt32BE(offset, g * 4);
    const start = loca.readUInt32BE(g * 4);
    const end = loca.readUInt32BE(g * 4 + 4);
    if (end <= start) continue;
    const glyph = withoutInstructions(glyf.subarray(start, end));
    const padded = glyph.length % 4 ? Buffer.concat([glyph, Buffer.alloc(4 - (glyph.length % 4))]) : glyph;
    glyphs.push(padded);
    offset += padded.length;
  }
  offsets.writeUInt32BE(offset, glyphCount * 4);

  const out = new Map(tables);
  for (const tag of HINTING_TABLES) out.delete(tag);
  out.set('glyf', Buffer.concat(glyphs));
  out.set('loca', offsets);
  const maxp = Buffer.from(tables.get('maxp') ?? Buffer.alloc(0));
  // version 1.0 maxp: the instruction limits (maxFunctionDefs … maxSizeOfInstructions) drop to nothing
  if (maxp.length >= 32 && maxp.readUInt32BE(0) === 0x00010000) {
    for (const at of [20, 22, 26]) maxp.writeUInt16BE(0, at);
    out.set('maxp', maxp);
  }
  return writeFont(font.readUInt32BE(0), out);
}

const HINTING_TABLES = ['fpgm', 'prep', 'cvt ', 'hdmx', 'LTSH', 'VDMX'];

// composite glyph component flags (OpenType "glyf")
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;
const WE_HAVE_INSTRUCTIONS = 0x0100;

function withoutInstructions(glyph: Buffer): Buffer {
  const contours = glyph.readInt16BE(0);
  if (contours >= 0) {
    // header (10), endPtsOfContours (2 each), instructionLength (2), instructions, flags and points
    const lengthAt = 10 + 2 * contours;
    const instructions = glyph.readUInt16BE(lengthAt);
    if (instructions === 0) return glyph;
    const out = Buffer.concat([glyph.subarray(0, lengthAt + 2), glyph.subarray(lengthAt + 2 + instructions)]);
    out.writeUInt16BE(0, lengthAt);
    return out;
  }
  // composite: the components, each without the instructions flag; what follows them is instructions
  const out = Buffer.from(glyph);
  let at = 10;
  for (;;) {
    const flags = out.readUInt16BE(at);
    out.writeUInt16BE(flags & ~WE_HAVE_INSTRUCTIONS, at);
    at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
    if (flags & WE_HAVE_A_SCALE) at += 2;
    else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
    else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
    if (!(flags & MORE_COMPONENTS)) break;
  }
  return out.subarray(0, at);
}

function readTables(font: Buffer): Map<string, Buffer> {
  const tables = new Map<string, Buffer>();
  const count = font.readUInt16BE(4);
  for (let i = 0; i < count; i++) {
    const record = 12 + 16 * i;
    const tag = font.toString('latin1', record, record + 4);
    const offset = font.readUInt32BE(record + 8);
    tables.set(tag, font.subarray(offset, offset + font.readUInt32BE(record + 12)));
  }
  return tables;
}

/** An sfnt with these tables, in tag order, with their checksums and head.checkSumAdjustment. */
function writeFont(version: number, tables: Map<string, Buffer>): Buffer {
  const entries = [...tables.keys()].sort().map((tag) => {
    const data = Buffer.from(tables.get(tag) as Buffer);
    if (tag === 'head') data.writeUInt32BE(0, 8); // checkSumAdjustment, set once the whole font is summed
    return { tag, checksum: sfntChecksum(data), data };
  });
  const font = writeSfnt(version, entries);
  const head = entries.findIndex((table) => table.tag === 'head');
  if (head >= 0) {
    const headOffset = font.readUInt32BE(12 + 16 * head + 8);
    font.writeUInt32BE((0xb1b0afba - sfntChecksum(font)) >>> 0, headOffset + 8);
  }
  return font;
}
