import Router from '@koa/router';
import type { Context } from 'koa';
import { AppError } from '../../domain/shared/app-error.js';
import type { Deps } from '../../domain/shared/deps.js';
import { GoogleSimulator } from '../../domain/users/index.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const param = (ctx: Context, name: string): string => {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : '';
};

/**
 * The Google sign-in simulator's pages (not JSON routes): the "authorization page" asks for an
 * e-mail, then redirects to the callback with a signed code, as Google would. Served only while the
 * simulator is the identity provider (Google not configured, ENABLE_SIMULATORS=true); else 404.
 */
export function googleSimulatorRouter(deps: Deps): Router {
  const router = new Router({ prefix: '/simulator/google' });
  const simulator = deps.identityProvider instanceof GoogleSimulator ? deps.identityProvider : null;
  if (!simulator) return router;

  /** Only the service's own callback: the simulator must not become an open redirect. */
  const checkRequest = (ctx: Context) => {
    if (param(ctx, 'redirect_uri') !== simulator.redirectUri) {
      throw new AppError('BAD_REQUEST', `redirect_uri must be ${simulator.redirectUri}.`);
    }
    if (!param(ctx, 'state')) throw new AppError('BAD_REQUEST', 'state is required.');
  };

  router.get('/authorize', (ctx) => {
    checkRequest(ctx);
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in with Google (simulator)</title></head>
<body>
<h1>Sign in with Google &mdash; simulator</h1>
<p>This server has no Google credentials, so this page stands in for Google. Any e-mail signs in.</p>
<form method="get" action="/simulator/google/approve">
<input type="hidden" name="state" value="${escapeHtml(param(ctx, 'state'))}">
<input type="hidden" name="redirect_uri" value="${escapeHtml(param(ctx, 'redirect_uri'))}">
<label>E-mail <input type="email" name="email" required autofocus></label>
<button type="submit">Continue</button>
</form>
</body>
</html>
`;
  });

  router.get('/approve', (ctx) => {
    checkRequest(ctx);
    const email = param(ctx, 'email').trim();
    if (email.length > 255 || !EMAIL.test(email)) throw new AppError('BAD_REQUEST', 'Enter a valid e-mail.');
    const state = param(ctx, 'state');
    const target = new URL(simulator.redirectUri);
    target.searchParams.set('code', simulator.issueCode(email, state));
    target.searchParams.set('state', state);
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(target.toString());
  });

  return router;
}
