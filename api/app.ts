import Router from '@koa/router';
import Koa, { type Middleware } from 'koa';
import type { Deps } from '../domain/shared/deps.js';
import { bindRoute, koaPath } from './http/bind-route.js';
import type { InFlight } from './http/in-flight.js';
import { RateLimits } from './http/rate-limit.js';
import type { RouteSpec } from './http/route-spec.js';
import { type McpOptions, mcpRouter } from './mcp/mcp.router.js';
import { parseBody } from './middleware/body.js';
import { corsFor } from './middleware/cors.js';
import { errorHandler } from './middleware/error-handler.js';
import { requestContext } from './middleware/request-context.js';
import { checkoutPageRouter } from './pages/checkout-page.router.js';
import { onboardingPagesRouter } from './pages/onboarding-callback.router.js';
import { quotePageGuard, quotePageRouter } from './pages/quote-page.router.js';
import { signingPageGuard, signingPageRouter } from './pages/signing-page.router.js';
import { verifyEmailPageRouter } from './pages/verify-email.router.js';
import { ROUTES } from './routes/index.js';
import { openApiRoutes } from './routes/openapi.routes.js';
import { googleSimulatorRouter } from './simulator/google-simulator.router.js';
import { onboardingSimulatorRouter } from './simulator/onboarding-simulator.router.js';

export interface AppOptions {
  /** The route tables to serve (tests add their own); the OpenAPI route is added over them. */
  routes?: readonly RouteSpec[];
  /** Counts running handlers, so that a graceful stop can wait for them (api/main.ts). */
  inFlight?: InFlight;
  /**
   * Tests only: a middleware over the routes, inside the error handler, that checks each response
   * against its documented schema (test/helpers/response-contract.ts). Never set in production.
   */
  responseCheck?: (routes: readonly RouteSpec[]) => Middleware;
  /** The MCP server's stream settings (tests shorten the ping). */
  mcp?: McpOptions;
}

/**
 * The Koa front. Middleware order: request context (id, logger, security headers) → CORS → error
 * handler → the MCP server (api/mcp/) → JSON body (within the matched route's limit) → router, where
 * each route authenticates.
 */
export function createApp(deps: Deps, options: AppOptions = {}): Koa {
  // Koa takes the client from X-Forwarded-For only behind trusted proxies, and then only the address
  // the outermost trusted one saw: the N-th from the right. Addresses left of it are the client's
  // own words (login throttling, last_used_ip and the audit trail must not trust them).
  const hops = deps.config.trustedProxyHops;
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  for (const warning of deps.config.warnings) deps.log.warn(warning);
  const routes: RouteSpec[] = [...(options.routes ?? ROUTES)];
  routes.push(...openApiRoutes(() => routes));

  const rateLimits = new RateLimits(deps);
  if (!rateLimits.enabled) deps.log.warn('RATE_LIMIT_SCALE=0: rate limiting is off');
  const router = new Router();
  for (const route of routes) router[route.method](koaPath(route.path), bindRoute(route, deps, rateLimits));

  if (options.inFlight) app.use(options.inFlight.middleware());
  app.use(requestContext(deps.log));
  app.use(corsFor(deps.config.corsOrigins));
  app.use(errorHandler());
  if (options.responseCheck) app.use(options.responseCheck(routes));
  app.use(signingPageGuard(deps));
  app.use(quotePageGuard(deps));
  // Before the JSON body parser: the MCP server reads its own body (a bad one is a JSON-RPC error).
  app.use(mcpRouter(deps, rateLimits, options.mcp).routes());
  app.use(parseBody(routes, deps.config.jsonBodyLimit));
  app.use(router.routes());
  app.use(googleSimulatorRouter(deps).routes());
  app.use(verifyEmailPageRouter().routes());
  app.use(signingPageRouter(deps, rateLimits).routes());
  app.use(checkoutPageRouter(deps, rateLimits).routes());
  app.use(onboardingPagesRouter(deps, rateLimits).routes());
  app.use(onboardingSimulatorRouter(deps).routes());
  app.use(quotePageRouter(deps, rateLimits).routes());
  app.use(router.allowedMethods({ throw: true }));
  app.on('error', (err) => deps.log.error({ err }, 'koa error'));
  return app;
}
