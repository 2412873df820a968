import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { viewQuotePage } from '../../domain/quotes/operations/index.js';
import { AppError, isAppError } from '../../domain/shared/app-error.js';
import { anonymousCaller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import { execute } from '../../domain/shared/execute.js';
import { publicBaseUrlOf } from '../../domain/users/index.js';
import type { RateLimits } from '../http/rate-limit.js';
import type { RouteSpec } from '../http/route-spec.js';
import { QUOTE_PAGE_SCRIPT, quoteMessagePage, quotePageCsp, quotePageHtml } from './quote-page-html.js';

const nonceOf = () => randomBytes(16).toString('base64');

/**
 * A quote's public page (`/quote/<token>`, the quote's `public_url`): the quote, and while it can be
 * answered, the buyer's acceptance by typed name or refusal. Its JSON calls are ordinary routes
 * (api/routes/quotes.routes.ts, `quotePageRoutes`). An unknown, revoked or expired link is 404.
 */
export function quotePageRouter(deps: Deps, rateLimits: RateLimits): Router {
  const router = new Router();
  const pageRoute: RouteSpec = {
    method: 'get',
    path: '/quote/{token}',
    operation: viewQuotePage,
    tag: 'Quote page',
    auth: ['none'],
  };
  router.get('/quote.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = QUOTE_PAGE_SCRIPT;
  });
  router.get('/quote/:token', async (ctx) => {
    const nonce = nonceOf();
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('Content-Security-Policy', quotePageCsp(nonce));
    const caller = callerOf(ctx);
    await rateLimits.enforce(ctx, pageRoute, caller);
    try {
      const view = await execute(viewQuotePage, { token: ctx.params.token }, caller, deps);
      ctx.body = quotePageHtml(ctx.params.token, view, nonce);
    } catch (err) {
      if (!isAppError(err) || !['NOT_FOUND', 'VALIDATION_ERROR'].includes(err.code)) throw err;
      ctx.status = 404;
      ctx.body = quoteMessagePage(nonce, 'Lien inconnu', "Ce lien de devis n'est pas valide ou a expiré.");
    }
  });
  return router;
}

const callerOf = (ctx: Context) => ({
  ...anonymousCaller(ctx.ip, (ctx.state as { requestId?: string }).requestId),
  userAgent: ctx.get('user-agent').slice(0, 500) || null,
});

/**
 * Cross-site request forgery on the page's JSON calls: the token in the path is the permission, so
 * a POST from another site (its Origin, or Sec-Fetch-Site) is refused.
 */
export function quotePageGuard(deps: Deps): Middleware {
  const publicOrigin = new URL(publicBaseUrlOf(deps.config)).origin;
  return async (ctx, next) => {
    if (ctx.method === 'POST' && ctx.path.startsWith('/quote/')) {
      const origin = ctx.get('Origin');
      const site = ctx.get('Sec-Fetch-Site');
      const own = `${ctx.protocol}://${ctx.host}`;
      const sameOrigin = !origin || origin === own || origin === publicOrigin;
      if (!sameOrigin || (site && site !== 'same-origin' && site !== 'none')) {
        throw new AppError('FORBIDDEN', 'The quote page accepts calls from its own page only.');
      }
    }
    await next();
  };
}
