import Router from '@koa/router';
import type { Context } from 'koa';
import { decideOnboardingSimulator, getOnboardingSimulator } from '../../domain/onboarding/operations/index.js';
import { anonymousCaller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import { execute } from '../../domain/shared/execute.js';
import { escapeHtml } from '../pages/signing-page-html.js';

const queryOf = (ctx: Context): Record<string, string> =>
  Object.fromEntries(
    Object.entries(ctx.query).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])),
  );

const callerOf = (ctx: Context) => anonymousCaller(ctx.ip, (ctx.state as { requestId?: string }).requestId);

const REQUEST_FIELDS = ['state', 'redirect_uri', 'code_challenge', 'code_challenge_method'] as const;

/**
 * The onboarding simulator's authorization page, standing in for SuperPDP's tunnel
 * (DECISIONS.md "Providers"): a form that creates the company's account (name, SIRET, e-mail),
 * approves or refuses, optionally leaving the company "under review" for a few seconds, then
 * redirects to the callback page with a code (or `error=access_denied`). It answers only for a
 * session the service sent to the simulator (sandbox, or local production with ENABLE_SIMULATORS):
 * a session sent to SuperPDP is 404 here.
 */
export function onboardingSimulatorRouter(deps: Deps): Router {
  const router = new Router({ prefix: '/simulator/superpdp/oauth2' });

  router.get('/authorize', async (ctx) => {
    const query = queryOf(ctx);
    const session = await execute(getOnboardingSimulator, query, callerOf(ctx), deps);
    const hidden = REQUEST_FIELDS.map(
      (name) => `<input type="hidden" name="${name}" value="${escapeHtml(query[name] ?? '')}">`,
    ).join('\n');
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.body = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>SuperPDP (simulator): open your account</title></head>
<body>
<h1>SuperPDP &mdash; simulator</h1>
<p>This page stands in for SuperPDP's account opening (${escapeHtml(session.environment)}). Nothing is sent anywhere.</p>
<form method="get" action="/simulator/superpdp/oauth2/decide">
${hidden}
<p><label>Company name <input name="company_name" required maxlength="255" autocomplete="organization"></label></p>
<p><label>SIRET <input name="siret" required pattern="[0-9]{14}" inputmode="numeric"></label></p>
<p><label>E-mail <input type="email" name="email" required maxlength="255" value="${escapeHtml(query.login_hint ?? '')}"></label></p>
<p><label>Verification <select name="review_seconds">
<option value="0">Verified at once</option>
<option value="5">Under review for 5 seconds</option>
<option value="30">Under review for 30 seconds</option>
</select></label></p>
<p><button type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="refuse" id="refuse" formnovalidate>Refuse</button></p>
</form>
</body>
</html>
`;
  });

  router.get('/decide', async (ctx) => {
    const { redirect_to } = await execute(decideOnboardingSimulator, queryOf(ctx), callerOf(ctx), deps);
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(redirect_to);
  });

  return router;
}
