import type { Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { AppError } from '../../domain/shared/app-error.js';
import { type RouteSpec, takesBody } from '../http/route-spec.js';

interface Limit {
  method: string;
  pattern: RegExp;
  parser: Middleware;
}

/**
 * Parses JSON bodies before routing (a malformed or oversized body is refused whatever the path),
 * within the limit of the route the request is for: its `bodyLimit`, else JSON_BODY_LIMIT.
 */
export function parseBody(routes: readonly RouteSpec[], defaultLimit: string): Middleware {
  const fallback = jsonParser(defaultLimit);
  const limits: Limit[] = routes
    .filter((route) => route.bodyLimit)
    .map((route) => ({
      method: route.method.toUpperCase(),
      pattern: new RegExp(`^${route.path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
      parser: jsonParser(route.bodyLimit!),
    }));

  return async (ctx, next) => {
    if (!takesBody(ctx.method)) return next();
    const hasBody = Number(ctx.get('Content-Length') || 0) > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasBody && !ctx.is('application/json', 'application/*+json')) {
      // Refused before reading, rather than silently ignored.
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON (Content-Type: application/json).');
    }
    const limit = limits.find((l) => l.method === ctx.method && l.pattern.test(ctx.path));
    return (limit?.parser ?? fallback)(ctx, next);
  };
}

function jsonParser(limit: string): Middleware {
  return koaBody({
    json: true,
    jsonStrict: true,
    multipart: false,
    urlencoded: false,
    text: false,
    jsonLimit: limit,
    onError: (err) => {
      throw err;
    },
  }) as unknown as Middleware;
}
