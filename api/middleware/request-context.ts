import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../../domain/shared/logger.js';

/** The specification's security headers, exactly ("Authentication", last paragraph). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'self'; script-src 'self'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'X-XSS-Protection': '0',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
};

const INCOMING_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Paths whose last segment is itself a credential: a download link's token serves a file to
 * whoever holds it, a signing page's token lets its holder sign, so neither reaches a log line. Case-insensitive, as the router matches.
 */
const SECRET_PATH = /^(\/api\/v1\/files\/(?:credit-notes\/)?|\/sign\/)[^/]+/i;

/** The path as logs may show it. */
export const loggablePath = (path: string): string => path.replace(SECRET_PATH, '$1[REDACTED]');

export interface RequestState {
  requestId: string;
  log: Logger;
}

/**
 * First in the chain: a request id (the caller's `X-Request-Id` when well-formed, else a new one),
 * a per-request logger, the security headers, and one access-log line per request.
 */
export function requestContext(log: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const incoming = ctx.get('X-Request-Id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
    const state = ctx.state as RequestState;
    state.requestId = requestId;
    // Made on first use: most requests log nothing below the access line, which is often off.
    let requestLog: Logger | undefined;
    Object.defineProperty(state, 'log', {
      get: () => (requestLog ??= log.child({ request_id: requestId })),
      set: (value: Logger) => {
        requestLog = value;
      },
      enumerable: true,
      configurable: true,
    });
    ctx.set('X-Request-Id', requestId);
    ctx.set(SECURITY_HEADERS);
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // A request's logger is made only to write this line when its level lets it through.
      if (requestLog || log.isLevelEnabled('info')) {
        state.log.info(
          {
            method: ctx.method,
            path: loggablePath(ctx.path),
            status: ctx.status,
            duration_ms: Math.round(ms * 10) / 10,
            ip: ctx.ip,
          },
          'request',
        );
      }
    }
  };
}
