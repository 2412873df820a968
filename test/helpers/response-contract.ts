import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Context, Middleware } from 'koa';
import { koaPath } from '../../api/http/bind-route.js';
import { renderError } from '../../api/http/render-error.js';
import type { RouteSpec } from '../../api/http/route-spec.js';
import { documentedErrors, successBodySchema } from '../../schemas/openapi.js';
import type { SchemaRegistry } from '../../schemas/registry.js';

/**
 * Thrown (and answered as a 500) when a success body does not match its route's documented schema,
 * or when the route answers an error status its OpenAPI responses do not list.
 */
export class ResponseContractError extends Error {
  constructor(
    readonly route: string,
    readonly errors: ErrorObject[],
    readonly undocumentedStatus?: number,
  ) {
    super(
      undocumentedStatus
        ? `${route}: answers ${undocumentedStatus}, a status its OpenAPI responses do not list (add it to the route's errors)`
        : `${route}: the response does not match its documented schema:\n${errors
            .map((e) => `  ${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
            .join('\n')}`,
    );
  }
}

/**
 * Test apps only: checks every 2xx JSON body against the schema the OpenAPI document gives its
 * route (the operation's `output` in the route's envelope: `successBodySchema`, schemas/openapi.ts),
 * and every error status against the statuses the document lists for the route.
 * A mismatch is thrown inside the error handler, so the call answers 500, and is written to stderr
 * with the ajv errors, so the failing test shows what drifted.
 */
export function responseContract(schemas: SchemaRegistry): (routes: readonly RouteSpec[]) => Middleware {
  // No useDefaults and no coercion, unlike the input registry: the body is checked exactly as sent.
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  for (const id of schemas.ids()) ajv.addSchema(schemas.get(id) as object);

  return (routes) => {
    const validators = new Map<RouteSpec, ValidateFunction>();
    const validatorFor = (route: RouteSpec): ValidateFunction => {
      let validate = validators.get(route);
      if (!validate) {
        validate = ajv.compile(successBodySchema(route, { $ref: route.operation.output }));
        validators.set(route, validate);
      }
      return validate;
    };
    /** An error status the route does not document (schemas/openapi.ts `documentedErrors`) is drift too. */
    const checkErrorStatus = (route: RouteSpec | undefined, status: number) => {
      if (!route || status < 400 || documentedErrors(route, schemas.get(route.operation.input)).has(status)) return;
      const err = new ResponseContractError(`${route.method.toUpperCase()} ${route.path}`, [], status);
      process.stderr.write(`${err.message}\n`);
      throw err;
    };
    const routeOf = (ctx: Context): RouteSpec | undefined => {
      const matched = (ctx as Context & { _matchedRoute?: string })._matchedRoute;
      return routes.find((r) => r.method === ctx.method.toLowerCase() && koaPath(r.path) === matched);
    };

    return async (ctx, next) => {
      try {
        await next();
      } catch (err) {
        // Thrown errors become responses in the error handler, outside this middleware.
        checkErrorStatus(routeOf(ctx), renderError(err, '').status);
        throw err;
      }
      checkErrorStatus(routeOf(ctx), ctx.status);
      if (ctx.status < 200 || ctx.status > 299 || ctx.status === 204 || !ctx.response.is('json')) return;
      const route = routeOf(ctx);
      if (!route || route.file || typeof ctx.body !== 'string') return;
      const validate = validatorFor(route);
      if (!validate(JSON.parse(ctx.body))) {
        const err = new ResponseContractError(`${route.method.toUpperCase()} ${route.path}`, validate.errors ?? []);
        process.stderr.write(`${err.message}\n`);
        throw err;
      }
    };
  };
}
