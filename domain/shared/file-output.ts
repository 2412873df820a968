import type { Readable } from 'node:stream';

/**
 * What an operation returns to be sent as a file rather than JSON (a route with `file` set):
 * the bytes, their media type and the name the browser saves them under. A file too large to hold
 * in memory is a stream, read only as the response is sent, with its length when known in advance.
 */
export interface FileOutput {
  content: Buffer | Readable;
  /** The length of a streamed file, sent as Content-Length (a Buffer's is its own). */
  bytes?: number;
  contentType: string;
  filename: string;
}
