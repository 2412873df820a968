import type { Readable } from 'node:stream';
import yazl from 'yazl';

/** One file of an archive: its path inside it (`/`-separated, UTF-8) and its bytes, or a stream of `size` bytes. */
export type ZipSource = { path: string; content: Buffer } | { path: string; size: number; open: () => Readable };

export interface ZipStream {
  /** The archive's bytes, produced as they are read (a stream file's bytes are read as the reader asks). */
  stream: Readable;
  /** The archive's exact length, known before its first byte since nothing is compressed. */
  bytes: number;
}

/** A regular file, rw-r--r--. */
const FILE_MODE = 0o100644;

/**
 * A ZIP archive (PKWARE APPNOTE.TXT) of stored files, written by yazl as it is read: method 0 (no
 * compression), UTF-8 names, every file stamped with `modified`. Memory holds the small files and
 * one chunk of a streamed one, whatever its size. Past 65,535 files or 4 GiB the archive switches to
 * ZIP64 by itself (as `unzip`, `python3 -m zipfile` and every current reader read). A streamed file
 * is followed by a data descriptor, its CRC-32 being computed while it is written.
 */
export function streamZip(files: readonly ZipSource[], modified: Date): ZipStream {
  const zip = new yazl.ZipFile();
  const stream = zip.outputStream as Readable;
  const options = { compress: false, mtime: modified, mode: FILE_MODE };
  const seen = new Set<string>();
  for (const file of files) {
    if (seen.has(file.path)) throw new Error(`repeated path in a ZIP archive: ${JSON.stringify(file.path)}`);
    seen.add(file.path);
    if ('content' in file) zip.addBuffer(file.content, file.path, options);
    else {
      zip.addReadStreamLazy(file.path, { ...options, size: file.size }, (cb) => {
        // Opened when its turn comes; a failure to open (the archive dropped already) ends the archive.
        let opened: Readable;
        try {
          opened = file.open();
        } catch (err) {
          return cb(err, undefined as never);
        }
        // yazl pipes it without listening for its errors: a read error ends the archive, not the process.
        opened.on('error', (err) => stream.destroy(err));
        cb(null, opened);
      });
    }
  }
  // A streamed file that fails to read (or is not the size announced) ends the archive with that error.
  zip.on('error', (err: Error) => stream.destroy(err));
  let bytes = -1;
  // Called synchronously by end() when every size is known, as it is here (types say no argument).
  (zip.end as (options: undefined, done: (size: number) => void) => void).call(zip, undefined, (size) => {
    bytes = size;
  });
  if (bytes < 0) throw new Error('the length of a stored ZIP archive should be known in advance');
  return { stream, bytes };
}
