import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import {
  hostOf,
  OutboundUrlRefused,
  outboundUrlProblem,
  pinnedLookup,
  type Resolver,
  resolveOutboundHost,
  systemResolver,
} from '../shared/outbound-url.js';
import {
  RESPONSE_EXCERPT_BYTES,
  type WebhookOutcome,
  type WebhookRequest,
  type WebhookSender,
} from './webhook-sender.js';

export interface HttpWebhookSenderOptions {
  /** ALLOW_PRIVATE_URLS: http and private addresses allowed (local development and tests). */
  allowPrivate: boolean;
  resolver?: Resolver;
}

/**
 * How long a connection to a receiver stays open between two deliveries. Below the 5 s that Node's
 * and many servers' keep-alive defaults allow; a server announcing less (`Keep-Alive: timeout=N`) is
 * believed, less a second.
 */
export const IDLE_CONNECTION_MS = 4000;

/**
 * Webhooks over node:http(s). The URL is checked again, its host resolved and every address checked
 * by the SSRF guard, and the socket connects only to those addresses (`pinnedLookup`): a DNS answer
 * that changed since the URL was saved gains nothing. Redirects are not followed. The deadline
 * covers the whole call; only the first bytes of the answer are read.
 *
 * Connections are kept alive between deliveries to the same host and port: a burst of events costs
 * a receiver one TCP (and TLS) handshake per connection, not per delivery. Only a connection made
 * through the guard is ever pooled, and each delivery passes the guard before it takes one.
 */
export function httpWebhookSender(options: HttpWebhookSenderOptions): WebhookSender {
  const resolver = options.resolver ?? systemResolver;
  const pool = { keepAlive: true, timeout: IDLE_CONNECTION_MS, scheduling: 'lifo' } as const;
  const httpAgent = new http.Agent(pool);
  const httpsAgent = new https.Agent(pool);
  return {
    async send(request) {
      const started = performance.now();
      const elapsed = () => Math.max(0, Math.round(performance.now() - started));
      const fail = (error: string, status: number | null = null, body: string | null = null): WebhookOutcome => ({
        success: false,
        status_code: status,
        response_time_ms: elapsed(),
        response_body: body,
        error,
      });
      const problem = outboundUrlProblem(request.url, options.allowPrivate);
      if (problem) return fail(`URL refused: ${problem}`);
      const url = new URL(request.url);
      const signal = AbortSignal.timeout(request.timeout_ms);
      try {
        const host = hostOf(url);
        // An address literal was checked with the URL; a name is resolved and each address checked.
        const addresses = isIP(host)
          ? [host]
          : await abortable(resolveOutboundHost(host, options.allowPrivate, resolver), signal);
        const agent = url.protocol === 'https:' ? httpsAgent : httpAgent;
        const answer = await postReusing(url, addresses, request, signal, agent);
        // PostgreSQL text cannot hold NUL: it becomes U+FFFD, like any invalid byte.
        const excerpt = answer.body.toString('utf8').replaceAll('\u0000', '\uFFFD');
        if (answer.status >= 200 && answer.status < 300) {
          return {
            success: true,
            status_code: answer.status,
            response_time_ms: elapsed(),
            response_body: excerpt,
            error: null,
          };
        }
        const why =
          answer.status >= 300 && answer.status < 400
            ? `HTTP ${answer.status}: redirects are not followed${answer.location ? ` (to ${answer.location})` : ''}`
            : `HTTP ${answer.status}`;
        return fail(why, answer.status, excerpt);
      } catch (err) {
        if (signal.aborted) return fail(`no answer within ${request.timeout_ms / 1000} s`);
        if (err instanceof OutboundUrlRefused) return fail(`URL refused: ${err.message}`);
        return fail(describe(err));
      }
    },
  };
}

interface Answer {
  status: number;
  location: string | undefined;
  body: Buffer;
}

/**
 * Posts on a kept connection when there is one. A receiver may close an idle connection just as it
 * is taken: the reset comes before any answer, and the request is made once more on a new
 * connection. The receiver then sees the delivery at most twice, with the same X-Service-Delivery
 * (at least once, as after any retry).
 */
async function postReusing(
  url: URL,
  addresses: string[],
  request: WebhookRequest,
  signal: AbortSignal,
  agent: http.Agent,
): Promise<Answer> {
  try {
    return await post(url, addresses, request, signal, agent);
  } catch (err) {
    if (!(err instanceof StaleConnection)) throw err;
    return post(url, addresses, request, signal, false);
  }
}

/** A kept connection failed before any answer: what `postReusing` tries again. */
class StaleConnection extends Error {
  override readonly name = 'StaleConnection';
}

function post(
  url: URL,
  addresses: string[],
  request: WebhookRequest,
  signal: AbortSignal,
  agent: http.Agent | false,
): Promise<Answer> {
  const client = url.protocol === 'https:' ? https : http;
  const body = Buffer.from(request.body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...request.headers, 'Content-Length': String(body.length) },
        lookup: pinnedLookup(addresses) as never,
        agent,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          resolve({
            status: res.statusCode ?? 0,
            location: res.headers.location,
            body: Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES),
          });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) {
            // Enough for the log: the rest of a large answer is not waited for.
            res.removeAllListeners('data');
            res.destroy();
            done();
          }
        });
        res.on('end', done);
        res.on('error', (err) => (size >= RESPONSE_EXCERPT_BYTES ? done() : reject(err)));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      const stale = req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
      reject(stale ? new StaleConnection(err.message, { cause: err }) : err);
    });
    req.end(body);
  });
}

/** Rejects when the deadline passes first (DNS has no signal of its own). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function describe(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host lookup failed (temporary)',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
  };
  const text = (e.code && known[e.code]) || e.message || String(err);
  return text.slice(0, 500);
}
