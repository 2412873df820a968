import { PassThrough } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import { endMcpSession, openMcpSession, touchMcpSession } from '../../domain/platform/index.js';
import { anonymousCaller, type Caller } from '../../domain/shared/caller.js';
import type { Deps } from '../../domain/shared/deps.js';
import { asAppError, errorBody, errorLine } from '../../domain/shared/error-body.js';
import type { RateLimits } from '../http/rate-limit.js';
import type { RouteSpec } from '../http/route-spec.js';
import { authenticate } from '../middleware/authenticate.js';
import type { RequestState } from '../middleware/request-context.js';
import { classify, type JsonRpcError, type JsonRpcResponse, RPC, rpcError, rpcResult } from './json-rpc.js';
import {
  agreedVersion,
  answer,
  CAPABILITIES,
  DEFAULT_PROTOCOL_VERSION,
  MCP_SERVER_NAME,
  MCP_SERVER_VERSION,
  PROTOCOL_VERSIONS,
} from './mcp-server.js';
import { toolCatalogueOf } from './tool-catalogue.js';

export interface McpOptions {
  /** Time between two pings of `GET /mcp/stream` (spec: every 30 s). */
  streamPingMs?: number;
}

/** Largest request body: a `create_signature` carries its PDF (20 MB) in base64. */
const BODY_LIMIT = 30 * 1024 * 1024;
const SESSION_HEADER = 'Mcp-Session-Id';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The MCP authentication: secret keys only, in X-API-Key (or X-Service-API-Key, X-Tenant-Key,
 * Authorization: Bearer sk_…), resolved as the HTTP routes resolve them; counted against the MCP
 * rate limit (60 per minute per key). A RouteSpec only for `authenticate` and `RateLimits`.
 */
const MCP_ROUTE = {
  method: 'post',
  path: '/mcp',
  auth: ['api_key'],
  rateLimit: 'mcp',
  tag: 'MCP',
} as unknown as RouteSpec;

const DISCOVERY_ROUTE = { method: 'get', path: '/mcp', auth: ['none'], tag: 'MCP' } as unknown as RouteSpec;

class McpHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: JsonRpcError,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.error.message);
  }
}

/**
 * The MCP server over HTTP (Streamable HTTP, answering JSON), at `/mcp` and `/api/mcp`, each with or
 * without a trailing slash: POST carries JSON-RPC messages, DELETE ends a session, GET answers the
 * discovery document (or 405 to a client asking for an event stream), and `/mcp/stream` is the SSE
 * stream. Mounted before the JSON body parser: a bad body is a JSON-RPC parse error, not an HTTP one.
 */
export function mcpRouter(deps: Deps, rateLimits: RateLimits, options: McpOptions = {}): Router {
  const router = new Router();
  const catalogue = () => toolCatalogueOf(deps.schemas);
  const pingMs = options.streamPingMs ?? 30_000;

  for (const prefix of ['', '/api']) {
    router.get(`${prefix}/mcp/stream`, (ctx) => withErrors(ctx, () => stream(ctx)));
    for (const path of [`${prefix}/mcp`, `${prefix}/mcp/`]) {
      router.get(path, (ctx) => withErrors(ctx, () => discovery(ctx)));
      router.post(path, (ctx) => withErrors(ctx, () => post(ctx)));
      router.delete(path, (ctx) => withErrors(ctx, () => end(ctx)));
    }
  }

  /** Any failure before the messages are read: HTTP status plus one JSON-RPC error, id null. */
  async function withErrors(ctx: Context, handle: () => Promise<void>): Promise<void> {
    try {
      await handle();
    } catch (err) {
      const failure = err instanceof McpHttpError ? err : httpErrorOf(err, ctx);
      ctx.status = failure.status;
      ctx.set(failure.headers);
      ctx.type = JSON_TYPE;
      ctx.body = JSON.stringify(failure.body);
    }
  }

  function httpErrorOf(err: unknown, ctx: Context): McpHttpError {
    const known = asAppError(err);
    if (!known) {
      (ctx.state as RequestState).log.error({ err }, 'MCP transport failed');
      return new McpHttpError(500, rpcError(null, RPC.INTERNAL_ERROR, 'Internal error.'));
    }
    // Credentials (401, 403) and the rate limit (429) are -32001; the HTTP status says which.
    const code =
      known.status === 401 || known.status === 403 || known.status === 429 ? RPC.UNAUTHORIZED : RPC.INTERNAL_ERROR;
    const body = errorBody(known);
    return new McpHttpError(
      known.status,
      rpcError(null, code, errorLine(body), { code: body.code }),
      known.extra.headers ?? {},
    );
  }

  async function callerOf(ctx: Context): Promise<Caller> {
    const caller = await authenticate(ctx, MCP_ROUTE, deps);
    await rateLimits.enforce(ctx, MCP_ROUTE, caller);
    return caller;
  }

  /** `GET /mcp` takes no credentials: it counts against the per-address anonymous limit. */
  async function discovery(ctx: Context): Promise<void> {
    await rateLimits.enforce(ctx, DISCOVERY_ROUTE, anonymousCaller(ctx.ip, (ctx.state as RequestState).requestId));
    // The SDK opens its event stream with GET and Accept: text/event-stream only; any JSON there
    // would be read as a broken stream and retried forever. 405 tells it there is none here.
    const accepts = ctx.get('Accept');
    if (accepts.includes('text/event-stream') && !accepts.includes('application/json')) {
      ctx.status = 405;
      ctx.set('Allow', 'POST, DELETE');
      ctx.type = JSON_TYPE;
      ctx.body = JSON.stringify(
        rpcError(
          null,
          RPC.METHOD_NOT_FOUND,
          'No event stream at this path: POST JSON-RPC messages here, or GET /mcp/stream.',
        ),
      );
      return;
    }
    ctx.type = JSON_TYPE;
    ctx.body = JSON.stringify({
      name: MCP_SERVER_NAME,
      version: MCP_SERVER_VERSION,
      protocol: DEFAULT_PROTOCOL_VERSION,
      tools_count: catalogue().size,
      capabilities: CAPABILITIES,
    });
  }

  async function post(ctx: Context): Promise<void> {
    const caller = await callerOf(ctx);
    const parsed = parseJson(await readBody(ctx));
    const batch = Array.isArray(parsed);
    const messages = (batch ? parsed : [parsed]).map(classify);
    if (batch && messages.length === 0) {
      throw new McpHttpError(400, rpcError(null, RPC.INVALID_REQUEST, 'Invalid Request: an empty batch.'));
    }

    const initialize = messages.find((m) => m.kind === 'request' && m.message.method === 'initialize');
    if (initialize && initialize.kind === 'request') {
      if (batch) {
        throw new McpHttpError(
          400,
          rpcError(initialize.message.id, RPC.INVALID_REQUEST, 'Invalid Request: initialize must be sent alone.'),
        );
      }
      const params = (initialize.message.params ?? {}) as Record<string, unknown>;
      const version = agreedVersion(params.protocolVersion);
      const sessionId = await openMcpSession(
        deps.db,
        { tenantId: caller.tenantId as string, keyId: caller.credential?.id as string },
        version,
        deps.clock.now(),
      );
      ctx.set(SESSION_HEADER, sessionId);
      respond(
        ctx,
        [
          rpcResult(initialize.message.id, {
            protocolVersion: version,
            capabilities: CAPABILITIES,
            serverInfo: { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
            instructions:
              'E-invoicing (Factur-X, UBL, CII), e-signatures and the fiscal ledger. create_invoice and create_signature are billable with a production key; sandbox keys (sk_test_) are free.',
          }),
        ],
        false,
      );
      return;
    }

    await requireSession(ctx, caller);
    // Clients of 2025-06-18 and later name the version agreed on every request; an unknown one is refused.
    const version = ctx.get('MCP-Protocol-Version');
    if (version && !PROTOCOL_VERSIONS.includes(version)) {
      throw new McpHttpError(
        400,
        rpcError(
          null,
          RPC.INVALID_REQUEST,
          `Unsupported MCP-Protocol-Version ${version}: one of ${PROTOCOL_VERSIONS.join(', ')}.`,
        ),
      );
    }
    const responses: JsonRpcResponse[] = [];
    for (const incoming of messages) {
      if (incoming.kind === 'invalid') responses.push(incoming.error);
      else if (incoming.kind === 'request') responses.push(await answer(incoming.message, caller, deps, catalogue()));
      // Notifications (`notifications/initialized`, cancellations) and responses need no answer.
    }
    respond(ctx, responses, batch);
  }

  function respond(ctx: Context, responses: JsonRpcResponse[], batch: boolean): void {
    if (responses.length === 0) {
      ctx.body = null; // Koa makes an empty body a 204: the status comes after
      ctx.status = 202;
      return;
    }
    ctx.status = 200;
    ctx.type = JSON_TYPE;
    ctx.body = JSON.stringify(batch ? responses : responses[0]);
  }

  async function requireSession(ctx: Context, caller: Caller): Promise<void> {
    const sessionId = ctx.get(SESSION_HEADER);
    if (!sessionId) {
      throw new McpHttpError(
        400,
        rpcError(
          null,
          RPC.INVALID_SESSION,
          'Mcp-Session-Id header required: send initialize first and use the id it returns.',
        ),
      );
    }
    const version = await touchMcpSession(deps.db, sessionId, caller.credential?.id as string, deps.clock.now());
    if (version === null) throw unknownSession();
  }

  async function end(ctx: Context): Promise<void> {
    const caller = await callerOf(ctx);
    const sessionId = ctx.get(SESSION_HEADER);
    if (!sessionId || !(await endMcpSession(deps.db, sessionId, caller.credential?.id as string))) {
      throw unknownSession();
    }
    ctx.status = 204;
    ctx.body = null;
  }

  /** `GET /mcp/stream`: an SSE stream for the key, a ping every 30 s, closed when the client goes. */
  async function stream(ctx: Context): Promise<void> {
    await callerOf(ctx);
    if (!ctx.get('Accept').includes('text/event-stream')) {
      throw new McpHttpError(
        406,
        rpcError(null, RPC.INVALID_REQUEST, 'This stream is Server-Sent Events: send Accept: text/event-stream.'),
      );
    }
    const body = new PassThrough();
    const ping = () =>
      body.write(
        `event: ping\ndata: ${JSON.stringify({ type: 'ping', timestamp: deps.clock.now().toISOString() })}\n\n`,
      );
    const timer = setInterval(ping, pingMs);
    const stop = () => {
      clearInterval(timer);
      body.end();
    };
    ctx.req.once('close', stop);
    body.once('error', stop);
    ctx.req.socket.setTimeout(0);
    ctx.status = 200;
    ctx.set({
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
    });
    ctx.body = body;
    ping();
  }

  return router;
}

const unknownSession = () =>
  new McpHttpError(
    404,
    rpcError(
      null,
      RPC.INVALID_SESSION,
      'Unknown or expired session (idle over 3600 s, or ended): send initialize again.',
    ),
  );

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new McpHttpError(400, rpcError(null, RPC.PARSE_ERROR, 'Parse error: the body is not valid JSON.'));
  }
}

/** The request body as text, within BODY_LIMIT (413 beyond, read no further). */
async function readBody(ctx: Context): Promise<string> {
  const declared = Number(ctx.get('Content-Length') || 0);
  const tooLarge = () =>
    new McpHttpError(413, rpcError(null, RPC.INVALID_REQUEST, `Request body larger than ${BODY_LIMIT} bytes.`));
  if (declared > BODY_LIMIT) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of ctx.req) {
      size += (chunk as Buffer).length;
      if (size > BODY_LIMIT) throw tooLarge();
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    if (err instanceof McpHttpError) throw err;
    // The client went away mid-body: nothing to answer, nothing to log as a failure of ours.
    throw new McpHttpError(400, rpcError(null, RPC.PARSE_ERROR, 'The request body was cut short.'));
  }
  return Buffer.concat(chunks).toString('utf8');
}
