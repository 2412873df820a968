import type { Middleware } from 'koa';
import { AppError } from '../../domain/shared/app-error.js';
import { renderError } from '../http/render-error.js';
import type { RequestState } from './request-context.js';

/**
 * The try/catch at the top of the chain (koa `docs/error-handling.md`): every error, and every
 * request no route answered, leaves in the specification's error shape.
 */
export function errorHandler(): Middleware {
  return async (ctx, next) => {
    const state = ctx.state as RequestState;
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('NOT_FOUND', `No route ${ctx.method} ${ctx.path}. See /api/v1/openapi.json.`);
      }
    } catch (err) {
      const rendered = renderError(err, state.requestId);
      if (rendered.unexpected) state.log.error({ err }, 'unhandled error');
      else if (rendered.status >= 500) state.log.warn({ err }, 'service error');
      ctx.status = rendered.status;
      ctx.set(rendered.headers);
      ctx.type = 'application/json';
      ctx.body = rendered.body;
    }
  };
}
