import Router from '@koa/router';
import type { Context } from 'koa';
import { openOnboardingRedirect, resumeOnboarding } from '../../domain/onboarding/operations/index.js';
import { isAppError } from '../../domain/shared/app-error.js';
import { anonymousCaller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import { execute } from '../../domain/shared/execute.js';
import type { RateLimits } from '../http/rate-limit.js';
import type { RouteSpec } from '../http/route-spec.js';
import { ONBOARDING_CALLBACK_SCRIPT } from './onboarding-callback-script.js';
import { escapeHtml } from './signing-page-html.js';

const callerOf = (ctx: Context) => anonymousCaller(ctx.ip, (ctx.state as { requestId?: string }).requestId);

const queryOf = (ctx: Context): Record<string, string> =>
  Object.fromEntries(
    Object.entries(ctx.query).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
  );

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body>
${body}
</body>
</html>
`;
}

/**
 * The onboarding pages (not JSON routes):
 * - GET /api/v1/onboarding/superpdp/callback: where the provider sends the browser back (`code` and
 *   `state`, or `error`). In `redirect` mode it forwards them to the session's `callback_url`;
 *   otherwise it is a page whose script (/onboarding/callback.js, allowed by the CSP as any script of
 *   ours) posts them to `window.opener` for the session's origin only, then closes. No
 *   Cross-Origin-Opener-Policy header is sent: one would cut the popup from its opener.
 * - GET /onboarding/resume/{token}: a session's signed resume link, redirected to a fresh
 *   authorization URL.
 * Both count against the anonymous per-address budget.
 */
export function onboardingPagesRouter(deps: Deps, rateLimits: RateLimits): Router {
  const router = new Router();
  const pageRoute: RouteSpec = {
    method: 'get',
    path: '/api/v1/onboarding/superpdp/callback',
    operation: openOnboardingRedirect,
    tag: 'Partner onboarding',
    auth: ['none'],
  };
  router.get('/onboarding/callback.js', (ctx) => {
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = ONBOARDING_CALLBACK_SCRIPT;
  });

  router.get('/api/v1/onboarding/superpdp/callback', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const caller = callerOf(ctx);
    await rateLimits.enforce(ctx, pageRoute, caller);
    const query = queryOf(ctx);
    let view: Awaited<ReturnType<typeof openOnboardingRedirect.run>>;
    try {
      // Only the fields of the OAuth redirect (RFC 6749 §4.1.2): a provider may add others (`iss`).
      const redirect = Object.fromEntries(
        ['state', 'code', 'error', 'error_description'].flatMap((name) => (query[name] ? [[name, query[name]]] : [])),
      );
      view = await execute(openOnboardingRedirect, redirect, caller, deps);
    } catch (err) {
      if (!isAppError(err) || !['NOT_FOUND', 'VALIDATION_ERROR'].includes(err.code)) throw err;
      ctx.status = 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = page(
        'Unknown onboarding link',
        '<h1>Unknown onboarding link</h1><p>This link is not valid any more. Start the onboarding again from the application.</p>',
      );
      return;
    }
    if (view.mode === 'redirect' && view.callback_url) {
      const target = new URL(view.callback_url);
      target.searchParams.set('session_id', view.session_id);
      for (const name of ['code', 'state', 'error', 'error_description']) {
        if (query[name]) target.searchParams.set(name, query[name]);
      }
      if (view.client_state) target.searchParams.set('client_state', view.client_state);
      ctx.redirect(target.toString());
      return;
    }
    const attribute = (name: string, value: string | null | undefined) =>
      value ? ` data-${name}="${escapeHtml(value)}"` : '';
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page(
      'Onboarding',
      `<main id="onboarding"${attribute('session', view.session_id)}${attribute('origin', view.target_origin)}${attribute('code', query.code)}${attribute('state', query.state)}${attribute('error', query.error)}${attribute('error-description', query.error_description)}>
<h1>${query.error ? 'Onboarding not completed' : 'Onboarding'}</h1>
<p id="status">Returning to the application&hellip;</p>
</main>
<script src="/onboarding/callback.js"></script>`,
    );
  });

  router.get('/onboarding/resume/:token', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const caller = callerOf(ctx);
    await rateLimits.enforce(ctx, pageRoute, caller);
    try {
      const { authorize_url } = await execute(resumeOnboarding, { token: ctx.params.token }, caller, deps);
      ctx.redirect(authorize_url);
    } catch (err) {
      if (!isAppError(err) || !['NOT_FOUND', 'VALIDATION_ERROR', 'ONBOARDING_SESSION_EXPIRED'].includes(err.code)) {
        throw err;
      }
      ctx.status = err.code === 'ONBOARDING_SESSION_EXPIRED' ? 410 : 404;
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = page(
        'Onboarding link expired',
        '<h1>This onboarding link cannot be used</h1><p>It has expired or the onboarding is already finished. Start again from the application.</p>',
      );
    }
  });
  return router;
}
