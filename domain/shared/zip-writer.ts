import { crc32 } from 'node:zlib';

/** One file of an archive: its path inside it (`/`-separated, UTF-8) and its bytes. */
export interface ZipEntry {
  path: string;
  content: Buffer;
}

/** What the format without its ZIP64 extension can hold (APPNOTE.TXT 4.4.8, 4.4.21). */
export const ZIP_MAX_FILES = 0xffff;
export const ZIP_MAX_BYTES = 0xffffffff;

export class ZipTooLargeError extends Error {}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
/** General purpose flag bit 11: file names are UTF-8 (APPNOTE.TXT 4.4.4, appendix D). */
const UTF8_NAMES = 0x0800;
/** 2.0: what a reader needs for stored files in folders. */
const VERSION_NEEDED = 20;
/** Made by: UNIX (3), spec version 3.0, so that the external attributes carry Unix permissions. */
const VERSION_MADE_BY = (3 << 8) | 30;
/** A regular file, rw-r--r--. */
const FILE_ATTRIBUTES = (0o100644 << 16) >>> 0;

/**
 * A ZIP archive (PKWARE APPNOTE.TXT 6.3) of stored files: method 0 (no compression), CRC-32 from
 * node:zlib, UTF-8 names, every file stamped with `modified` as MS-DOS date and time (which hold
 * no time zone: the UTC fields are written). The same entries and instant give the same bytes.
 * Without ZIP64, an archive holds at most 65,535 files and 4 GiB: beyond, ZipTooLargeError.
 */
export function writeZip(entries: readonly ZipEntry[], modified: Date): Buffer {
  if (entries.length > ZIP_MAX_FILES) {
    throw new ZipTooLargeError(`${entries.length} files: a ZIP archive without ZIP64 holds at most ${ZIP_MAX_FILES}`);
  }
  const { time, date } = dosDateTime(modified);
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!entry.path || entry.path.startsWith('/') || entry.path.split('/').includes('..') || seen.has(entry.path)) {
      throw new Error(`bad or repeated path in a ZIP archive: ${JSON.stringify(entry.path)}`);
    }
    seen.add(entry.path);
    const name = Buffer.from(entry.path, 'utf8');
    const crc = crc32(entry.content) >>> 0;
    const size = entry.content.length;
    if (size > ZIP_MAX_BYTES || offset > ZIP_MAX_BYTES) {
      throw new ZipTooLargeError('the archive would pass 4 GiB, the limit of a ZIP archive without ZIP64');
    }
    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(0, 8); // method 0: stored
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(size, 18); // compressed size = size when stored
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28); // no extra field
    chunks.push(local, name, entry.content);

    const header = Buffer.alloc(46);
    header.writeUInt32LE(CENTRAL_HEADER, 0);
    header.writeUInt16LE(VERSION_MADE_BY, 4);
    header.writeUInt16LE(VERSION_NEEDED, 6);
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt16LE(0, 10);
    header.writeUInt16LE(time, 12);
    header.writeUInt16LE(date, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(size, 20);
    header.writeUInt32LE(size, 24);
    header.writeUInt16LE(name.length, 28);
    // extra field length (30), comment length (32), disk number (34), internal attributes (36): 0
    header.writeUInt32LE(FILE_ATTRIBUTES, 38);
    header.writeUInt32LE(offset, 42);
    central.push(header, name);
    offset += local.length + name.length + size;
  }
  const centralSize = central.reduce((sum, b) => sum + b.length, 0);
  if (offset + centralSize + 22 > ZIP_MAX_BYTES) {
    throw new ZipTooLargeError('the archive would pass 4 GiB, the limit of a ZIP archive without ZIP64');
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  // this disk (4) and the central directory's disk (6): 0
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(0, 20); // no comment
  return Buffer.concat([...chunks, ...central, end]);
}

/** MS-DOS date and time (APPNOTE.TXT 4.4.6): two-second resolution, years 1980 to 2107. */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.min(Math.max(at.getUTCFullYear(), 1980), 2107);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}
