import { Readable } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { AppError } from '../../domain/shared/app-error.js';
import type { Deps } from '../../domain/shared/deps.js';
import { authorize, execute } from '../../domain/shared/execute.js';
import type { FileOutput } from '../../domain/shared/file-output.js';
import { isUuid } from '../../domain/shared/ids.js';
import { assertNotTooDeep, markNotTooDeep } from '../../schemas/input-depth.js';
import { authenticate } from '../middleware/authenticate.js';
import type { RequestState } from '../middleware/request-context.js';
import { claimFor, isReplayable } from './idempotency.js';
import type { RateLimits } from './rate-limit.js';
import { renderError } from './render-error.js';
import { type RouteSpec, takesBody } from './route-spec.js';
import { sendFile } from './send-file.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** `{id}` → `:id` for @koa/router. */
export const koaPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The success body: the output itself, `{data}` or `{message, data}`. */
export function envelope(route: RouteSpec, output: unknown): unknown {
  if (route.envelope === 'raw') return output;
  return route.message ? { message: route.message, data: output } : { data: output };
}

/**
 * Route spec → Koa handler: authenticate, count against the rate limit, claim the Idempotency-Key, build
 * `{...query, ...body, ...pathParams}`, call `execute`, set the status. (The body was parsed before
 * routing, within this route's limit: api/middleware/body.ts.)
 */
export function bindRoute(route: RouteSpec, deps: Deps, rateLimits: RateLimits): Middleware {
  const handler: Middleware = async (ctx) => {
    const caller = await authenticate(ctx, route, deps);
    await rateLimits.enforce(ctx, route, caller);
    authorize(route.operation, caller); // before a path id can answer 404: the wrong credential is 403 first
    checkPathIds(ctx, route, deps);
    const input = inputOf(ctx, route);
    // Session routes set cookies outside the stored body, so they take no Idempotency-Key.
    const claim = route.respond ? null : await claimFor(ctx, caller, input, deps);
    if (claim === 'answered') return;

    const status = route.status ?? 200;
    const render = (output: unknown) => JSON.stringify(envelope(route, output));
    let output: unknown;
    // An operation without a transaction (a synchronous third-party call) has none to record the
    // response in, and a query's transaction is read-only (a POST that reads, such as bulk-status):
    // the response is then recorded in a transaction of its own once the operation is done.
    const inTransaction = route.operation.transactional !== false && route.operation.kind !== 'query';
    try {
      output = await execute(route.operation, input, caller, deps, {
        coerce: !takesBody(route.method) || (ctx.state as { coerceBody?: boolean }).coerceBody === true,
        beforeCommit:
          claim && inTransaction
            ? (tx, out) => claim.complete(tx, { status, body: render(out), contentType: JSON_TYPE })
            : undefined,
      });
      if (claim && !inTransaction) await claim.complete(null, { status, body: render(output), contentType: JSON_TYPE });
    } catch (err) {
      if (claim) {
        const rendered = renderError(err, (ctx.state as RequestState).requestId);
        if (isReplayable(rendered.status, rendered.body)) {
          await claim.complete(null, {
            status: rendered.status,
            body: JSON.stringify(rendered.body),
            contentType: JSON_TYPE,
          });
        } else {
          await claim.release();
        }
      }
      throw err;
    }
    if (route.respond) {
      const body = route.respond(ctx, output, caller);
      ctx.status = body === undefined ? 204 : status;
      if (body !== undefined) {
        ctx.type = JSON_TYPE;
        ctx.body = JSON.stringify(envelope(route, body));
      }
      return;
    }
    if (route.file && isFileOutput(output)) return sendFile(ctx, output);
    ctx.status = status;
    ctx.type = JSON_TYPE;
    ctx.body = render(output);
  };

  return handler;
}

/** An operation's output that is a file (its bytes), rather than JSON such as a download link. */
const isFileOutput = (output: unknown): output is FileOutput =>
  typeof output === 'object' &&
  output !== null &&
  (Buffer.isBuffer((output as FileOutput).content) || (output as FileOutput).content instanceof Readable);

/**
 * A path id that cannot exist (not a UUID where the schema says uuid) is an unknown resource: 404,
 * as for any id that is not the caller's, rather than a validation error.
 */
function checkPathIds(ctx: Context, route: RouteSpec, deps: Deps): void {
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {};
  const properties = (deps.schemas.get(route.operation.input).properties ?? {}) as Record<string, { format?: string }>;
  for (const [name, value] of Object.entries(params)) {
    if (properties[name]?.format === 'uuid' && !isUuid(value)) {
      throw new AppError('NOT_FOUND', `No resource with id ${JSON.stringify(value)}.`);
    }
  }
}

function inputOf(ctx: Context, route: RouteSpec): Record<string, unknown> {
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {};
  if (route.rawBody) {
    const raw = (ctx.state as { rawBody?: Buffer }).rawBody ?? Buffer.alloc(0);
    const signature = route.rawBody.signatureHeader ? ctx.get(route.rawBody.signatureHeader) : '';
    return { ...ctx.query, raw_body: raw.toString('base64'), ...(signature ? { signature } : {}), ...params };
  }
  const body = takesBody(route.method) ? ctx.request.body : undefined;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw AppError.validation({ body: ['must be a JSON object'] });
  }
  // Before the Idempotency-Key claim or anything else walks the body recursively.
  assertNotTooDeep(body);
  const input = { ...ctx.query, ...(body as Record<string, unknown> | undefined), ...params };
  markNotTooDeep(input);
  return input;
}
