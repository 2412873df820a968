import { randomBytes } from 'node:crypto';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { AppError, isAppError } from '../../domain/shared/app-error.js';
import { anonymousCaller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import { execute } from '../../domain/shared/execute.js';
import { getSigningPage } from '../../domain/signatures/operations/index.js';
import { publicBaseUrlOf } from '../../domain/users/index.js';
import type { RateLimits } from '../http/rate-limit.js';
import type { RouteSpec } from '../http/route-spec.js';
import { messagePage, type SigningPageData, signingPageCsp, signingPageHtml } from './signing-page-html.js';
import { SIGNING_PAGE_SCRIPT } from './signing-page-script.js';

const nonceOf = () => randomBytes(16).toString('base64');

/**
 * The simulator's signing page, at each signer's `signing_url` (`/sign/<token>`): the document, the
 * request's branding, the code, the signature or the refusal. Its JSON calls are ordinary routes
 * (api/routes/signing-page.routes.ts). A production request's page is served only while the
 * simulator is the signature provider (ENABLE_SIMULATORS); otherwise, as for an unknown token, 404.
 */
export function signingPageRouter(deps: Deps, rateLimits: RateLimits): Router {
  const router = new Router();
  // The page counts against the anonymous per-address budget, as the API's open routes do.
  const pageRoute: RouteSpec = {
    method: 'get',
    path: '/sign/{token}',
    operation: getSigningPage,
    tag: 'Signing page',
    auth: ['none'],
  };
  router.get('/sign.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = SIGNING_PAGE_SCRIPT;
  });
  router.get('/sign/:token', async (ctx) => {
    const nonce = nonceOf();
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    const caller = callerOf(ctx);
    await rateLimits.enforce(ctx, pageRoute, caller);
    let data: SigningPageData;
    try {
      data = await execute(getSigningPage, { token: ctx.params.token }, caller, deps);
    } catch (err) {
      if (!isAppError(err) || !['NOT_FOUND', 'VALIDATION_ERROR'].includes(err.code)) throw err;
      ctx.status = 404;
      ctx.set('Content-Security-Policy', signingPageCsp(nonce, null));
      ctx.body = messagePage(
        nonce,
        'Unknown signing link',
        'This signing link is not valid. Check the link you received.',
      );
      return;
    }
    ctx.set('Content-Security-Policy', signingPageCsp(nonce, data.ui_config));
    // frame-ancestors decides who may embed the page; X-Frame-Options DENY would forbid everyone.
    if (Array.isArray(data.ui_config?.iframe_ancestors) && data.ui_config.iframe_ancestors.length > 0) {
      ctx.remove('X-Frame-Options');
    }
    ctx.body = signingPageHtml(ctx.params.token, data, nonce);
  });
  return router;
}

const callerOf = (ctx: Context) => ({
  ...anonymousCaller(ctx.ip, (ctx.state as { requestId?: string }).requestId),
  userAgent: ctx.get('user-agent').slice(0, 500) || null,
});

/**
 * Cross-site request forgery on the page's JSON calls: the token in the path is the permission,
 * and a browser sends `Origin` with every POST, so a call from another site (a form or script
 * elsewhere) is refused unless it comes from this service's own origin. The document itself may be
 * framed by the page (same origin) and nobody else.
 */
export function signingPageGuard(deps: Deps): Middleware {
  const publicOrigin = new URL(publicBaseUrlOf(deps.config)).origin;
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/sign/')) return next();
    if (ctx.method === 'POST') {
      const origin = ctx.get('Origin');
      const site = ctx.get('Sec-Fetch-Site');
      // The request's own origin, from its Host (ctx.origin is not that in every Koa version).
      const own = `${ctx.protocol}://${ctx.host}`;
      const sameOrigin = !origin || origin === own || origin === publicOrigin;
      if (!sameOrigin || (site && site !== 'same-origin' && site !== 'none')) {
        throw new AppError('FORBIDDEN', 'The signing page accepts calls from its own page only.');
      }
    }
    await next();
    if (ctx.method === 'GET' && ctx.path.endsWith('/document')) {
      ctx.set('X-Frame-Options', 'SAMEORIGIN');
      ctx.set('Content-Security-Policy', "default-src 'self'; script-src 'self'; frame-ancestors 'self'");
    }
  };
}
