/** One table of a TrueType (sfnt) file: its tag, its checksum and its bytes. */
export interface SfntTable {
  tag: string;
  checksum: number;
  data: Buffer;
}

/**
 * A TrueType (sfnt) file of these tables, in the order given (by tag, as the format wants), each
 * on a 4-byte boundary: OpenType "Table Directory", with its binary-search fields.
 */
export function writeSfnt(flavor: number, tables: readonly SfntTable[]): Buffer {
  const entrySelector = Math.floor(Math.log2(tables.length));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + 16 * tables.length);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(tables.length, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(tables.length * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((table, i) => {
    const entry = 12 + i * 16;
    header.write(table.tag, entry, 'latin1');
    header.writeUInt32BE(table.checksum, entry + 4);
    header.writeUInt32BE(offset, entry + 8);
    header.writeUInt32BE(table.data.length, entry + 12);
    const padding = (4 - (table.data.length % 4)) % 4;
    parts.push(table.data, Buffer.alloc(padding));
    offset += table.data.length + padding;
  });
  return Buffer.concat(parts);
}

/** The table checksum of OpenType: the sum of its big-endian 32-bit words, the last one zero-padded. */
export function sfntChecksum(data: Buffer): number {
  let sum = 0;
  const whole = data.length - (data.length % 4);
  for (let i = 0; i < whole; i += 4) sum = (sum + data.readUInt32BE(i)) >>> 0;
  if (whole < data.length) {
    const tail = Buffer.alloc(4);
    data.copy(tail, 0, whole);
    sum = (sum + tail.readUInt32BE(0)) >>> 0;
  }
  return sum;
}
