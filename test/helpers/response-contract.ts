import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Context, Middleware } from 'koa';
import { koaPath } from '../../api/http/bind-route.js';
import type { RouteSpec } from '../../api/http/route-spec.js';
import { successBodySchema } from '../../schemas/openapi.js';
import type { SchemaRegistry } from '../../schemas/registry.js';

/** Thrown (and answered as a 500) when a success body does not match its route's documented schema. */
export class ResponseContractError extends Error {
  constructor(
    readonly route: string,
    readonly errors: ErrorObject[],
  ) {
    super(
      `${route}: the response does not match its documented schema:\n${errors
        .map((e) => `  ${e.instancePath || '(body)'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
        .join('\n')}`,
    );
  }
}

/**
 * Test apps only: checks every 2xx JSON body against the schema the OpenAPI document gives its
 * route (the operation's `output` in the route's envelope: `successBodySchema`, schemas/openapi.ts).
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
    const routeOf = (ctx: Context): RouteSpec | undefined => {
      const matched = (ctx as Context & { _matchedRoute?: string })._matchedRoute;
      return routes.find((r) => r.method === ctx.method.toLowerCase() && koaPath(r.path) === matched);
    };

    return async (ctx, next) => {
      await next();
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
