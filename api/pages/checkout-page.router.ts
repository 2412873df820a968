import Router from '@koa/router';
import type { Context } from 'koa';
import { completeSimulatedCheckout, getSimulatedCheckout } from '../../domain/billing/operations/index.js';
import { AppError, isAppError } from '../../domain/shared/app-error.js';
import { anonymousCaller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import { execute } from '../../domain/shared/execute.js';
import { publicBaseUrlOf } from '../../domain/users/index.js';
import type { RateLimits } from '../http/rate-limit.js';
import type { RouteSpec } from '../http/route-spec.js';
import { escapeHtml } from './signing-page-html.js';

const STYLE =
  'body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;color:#1f2933}' +
  'form{display:inline-block;margin:.25rem .5rem .25rem 0}' +
  'button{padding:.6rem 1.2rem;border:0;border-radius:4px;background:#2f8132;color:#fff;cursor:pointer}' +
  'button.cancel{background:#829ab1}.note{color:#52606d;font-size:.9rem}';
/** The forms post to the page itself, which redirects to the return URL: form-action covers both hops. */
const cspFor = (returnOrigin: string) =>
  `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${returnOrigin}; frame-ancestors 'none'; base-uri 'none'`;

const page = (title: string, body: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
</body>
</html>
`;

const CARDS = [
  { number: '4242424242424242', label: 'Pay with 4242 4242 4242 4242' },
  {
    number: '4000000000000341',
    label: 'Pay with 4000 0000 0000 0341 (later off-session charges are declined)',
  },
];

/**
 * The payment simulator's checkout page (DECISIONS.md "Providers"): what Stripe Checkout is in
 * production, for sandbox top-ups and local setups. Forms without fields post to the page's own
 * routes (no body to parse: the card is in the address), which answer 303 to the session's success
 * or cancel URL, as Stripe does. `/checkout/return` is where those land by default (TOP_UP_RETURN_URL).
 */
export function checkoutPageRouter(deps: Deps, rateLimits: RateLimits): Router {
  const router = new Router();
  const pageRoute: RouteSpec = {
    method: 'get',
    path: '/simulator/checkout/{id}',
    operation: getSimulatedCheckout,
    tag: 'Payment simulator',
    auth: ['none'],
  };
  const publicOrigin = new URL(publicBaseUrlOf(deps.config)).origin;
  const csp = cspFor(new URL(deps.config.topUpReturnUrl ?? publicBaseUrlOf(deps.config)).origin);
  const html = (ctx: Context, status: number, body: string) => {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Security-Policy', csp);
    ctx.body = body;
  };
  const unknown = (ctx: Context) =>
    html(ctx, 404, page('Unknown checkout', '<h1>Unknown checkout</h1><p>This checkout link is not valid.</p>'));
  const refused = (err: unknown) => isAppError(err) && ['NOT_FOUND', 'VALIDATION_ERROR'].includes(err.code);

  router.get('/simulator/checkout/:id', async (ctx) => {
    const caller = anonymousCaller(ctx.ip, (ctx.state as { requestId?: string }).requestId);
    await rateLimits.enforce(ctx, pageRoute, caller);
    let session: Awaited<ReturnType<typeof getSimulatedCheckout.run>>;
    try {
      session = await execute(getSimulatedCheckout, { session_id: ctx.params.id }, caller, deps);
    } catch (err) {
      if (!refused(err)) throw err;
      return unknown(ctx);
    }
    const amount = `${session.amount.toFixed(2)} ${escapeHtml(session.currency)}`;
    const id = encodeURIComponent(session.session_id);
    const body =
      session.status === 'open'
        ? `<h1>Top-up: ${amount}</h1>
<p class="note">Payment simulator: no card is charged. This page stands in for Stripe Checkout.</p>
${CARDS.map((card) => `<form method="post" action="/simulator/checkout/${id}/pay?card=${card.number}"><button type="submit" data-card="${card.number}">${escapeHtml(card.label)}</button></form>`).join('\n')}
<form method="post" action="/simulator/checkout/${id}/cancel"><button type="submit" class="cancel">Cancel</button></form>`
        : `<h1>Top-up: ${amount}</h1><p>This checkout is ${escapeHtml(session.status)} (${escapeHtml(session.payment_status)}).</p>`;
    html(ctx, 200, page(`Top-up ${session.amount.toFixed(2)} ${session.currency} (simulator)`, body));
  });

  for (const action of ['pay', 'cancel'] as const) {
    router.post(`/simulator/checkout/:id/${action}`, async (ctx) => {
      // The session id is the permission; a post from another site (a forged form) is refused.
      const origin = ctx.get('Origin');
      if (origin && origin !== `${ctx.protocol}://${ctx.host}` && origin !== publicOrigin) {
        throw new AppError('FORBIDDEN', 'The checkout page accepts its own forms only.');
      }
      const caller = anonymousCaller(ctx.ip, (ctx.state as { requestId?: string }).requestId);
      await rateLimits.enforce(ctx, { ...pageRoute, method: 'post' }, caller);
      const card = typeof ctx.query.card === 'string' ? ctx.query.card : undefined;
      let outcome: { redirect_url: string };
      try {
        outcome = await execute(
          completeSimulatedCheckout,
          { session_id: ctx.params.id, action, ...(card ? { card } : {}) },
          caller,
          deps,
        );
      } catch (err) {
        if (!refused(err)) throw err;
        return unknown(ctx);
      }
      ctx.status = 303;
      ctx.redirect(outcome.redirect_url);
    });
  }

  router.get('/checkout/return', (ctx) => {
    const paid = ctx.query.status === 'success';
    html(
      ctx,
      200,
      page(
        paid ? 'Payment received' : 'Payment cancelled',
        paid
          ? '<h1 id="outcome">Payment received</h1><p>Your balance is credited as soon as the payment is confirmed.</p>'
          : '<h1 id="outcome">Payment cancelled</h1><p>Nothing was charged and your balance is unchanged.</p>',
      ),
    );
  });
  return router;
}
