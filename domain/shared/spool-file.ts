import { randomUUID } from 'node:crypto';
import { open, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Bytes written once and read back once, too many to hold in memory. The file is made in the
 * system's temporary folder (`TMPDIR`) and unlinked as soon as it is opened: it lives only as this
 * open handle, so nothing is left on disk whatever happens to the process, and the space is freed
 * when the handle closes (after the reader's last byte, or on `discard`).
 */
export interface Spool {
  /** Appends bytes; awaited, so a producer goes no faster than the disk. */
  write(chunk: Buffer): Promise<void>;
  /** Bytes written so far. */
  readonly bytes: number;
  /** Everything written, from the first byte; the file is closed when the stream ends or is destroyed. */
  reader(): Readable;
  /** Closes the file, read or not (safe to call more than once, and after the reader has ended). */
  discard(): Promise<void>;
}

export async function createSpool(prefix: string): Promise<Spool> {
  const path = join(tmpdir(), `${prefix}-${randomUUID()}`);
  const handle = await open(path, 'wx+', 0o600);
  try {
    await unlink(path);
  } catch (err) {
    await handle.close();
    throw err;
  }
  let bytes = 0;
  let stream: Readable | null = null;
  let closed = false;
  return {
    async write(chunk) {
      let done = 0;
      while (done < chunk.length) {
        const { bytesWritten } = await handle.write(chunk, done, chunk.length - done, bytes + done);
        done += bytesWritten;
      }
      bytes += chunk.length;
    },
    get bytes() {
      return bytes;
    },
    reader() {
      if (stream || closed) throw new Error('a spool is read once');
      // Positional reads from 0; the stream closes the handle itself when it ends or is destroyed.
      stream = handle.createReadStream({ start: 0, end: bytes === 0 ? undefined : bytes - 1, autoClose: true });
      return stream;
    },
    async discard() {
      if (stream) {
        stream.destroy();
        return;
      }
      if (closed) return;
      closed = true;
      await handle.close();
    },
  };
}
