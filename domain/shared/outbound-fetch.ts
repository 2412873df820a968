import http from 'node:http';
import https from 'node:https';
import {
  hostOf,
  OutboundUrlRefused,
  outboundUrlProblem,
  pinnedLookup,
  type Resolver,
  resolveOutboundHost,
  systemResolver,
} from './outbound-url.js';

export interface OutboundFetchOptions {
  /** ALLOW_PRIVATE_URLS: http and private addresses allowed (local development and tests). */
  allowPrivate: boolean;
  /** Largest body read; a larger one is refused as soon as it passes the limit. */
  maxBytes: number;
  /** Deadline of the whole call (DNS, connection, body). */
  timeoutMs: number;
  resolver?: Resolver;
}

/** Why a file could not be fetched, in words for the caller (a 422's reason). */
export class OutboundFetchFailed extends Error {
  override readonly name = 'OutboundFetchFailed';
}

/**
 * GETs a file a caller names by URL (a document to sign): the URL and every address its host
 * resolves to pass the SSRF guard, the socket connects only to those addresses, redirects are not
 * followed, and the body is read under a byte limit and a deadline. The bytes are still untrusted:
 * the caller parses them as it parses an upload.
 */
export async function fetchPublicFile(url: string, options: OutboundFetchOptions): Promise<Buffer> {
  const problem = outboundUrlProblem(url, options.allowPrivate);
  if (problem) throw new OutboundFetchFailed(problem);
  const target = new URL(url);
  const signal = AbortSignal.timeout(options.timeoutMs);
  try {
    const addresses = await resolveOutboundHost(
      hostOf(target),
      options.allowPrivate,
      options.resolver ?? systemResolver,
    );
    return await get(target, addresses, options.maxBytes, signal);
  } catch (err) {
    if (err instanceof OutboundFetchFailed) throw err;
    if (signal.aborted) throw new OutboundFetchFailed(`no complete answer within ${options.timeoutMs / 1000} s`);
    if (err instanceof OutboundUrlRefused) throw new OutboundFetchFailed(err.message);
    throw new OutboundFetchFailed(`cannot be fetched: ${(err as Error).message}`);
  }
}

function get(url: URL, addresses: string[], maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      { method: 'GET', lookup: pinnedLookup(addresses) as never, agent: false, signal },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          res.destroy();
          const why = status >= 300 && status < 400 ? 'redirects are not followed' : 'not a success';
          reject(new OutboundFetchFailed(`answered HTTP ${status} (${why})`));
          return;
        }
        const declared = Number(res.headers['content-length'] ?? '0');
        if (declared > maxBytes) {
          res.destroy();
          reject(new OutboundFetchFailed(`is larger than ${maxBytes} bytes`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(new OutboundFetchFailed(`is larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve(Buffer.concat(chunks)));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
