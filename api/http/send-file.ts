import type { Context } from 'koa';
import type { FileOutput } from '../../domain/shared/file-output.js';

/** The filename as plain ASCII for old clients; `filename*` (RFC 6266, RFC 8187) carries it exactly. */
const asciiName = (name: string) => name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');

/**
 * Sends a file: its media type, its name in Content-Disposition (attachment, so a browser saves it
 * rather than rendering it on our origin), and no caching, since the link that reached it expires.
 * A stream is piped to the client as it is read (Koa destroys it if the client goes away), with
 * Content-Length when its length is known, else chunked.
 */
export function sendFile(ctx: Context, file: FileOutput): void {
  ctx.status = 200;
  ctx.type = file.contentType;
  ctx.set(
    'Content-Disposition',
    `attachment; filename="${asciiName(file.filename)}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
  );
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = file.content;
  if (!Buffer.isBuffer(file.content) && file.bytes !== undefined) ctx.length = file.bytes;
}
