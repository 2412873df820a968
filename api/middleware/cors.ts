import cors from '@koa/cors';
import type { Middleware } from 'koa';

/** CORS for the configured origins only, all methods, with credentials (spec "Authentication"). */
export function corsFor(allowedOrigins: readonly string[]): Middleware {
  const allowed = new Set(allowedOrigins);
  return cors({
    origin: (ctx) => (allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
    credentials: true,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    exposeHeaders: [
      'X-Request-Id',
      'Idempotent-Replayed',
      'Retry-After',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'X-RateLimit-Environment',
      'mcp-session-id',
    ],
    maxAge: 600,
  });
}
