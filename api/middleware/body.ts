import { readFile, rm } from 'node:fs/promises';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import qs from 'qs';
import { AppError } from '../../domain/shared/app-error.js';
import { type RouteSpec, takesBody, type UploadSpec } from '../http/route-spec.js';

interface Limit {
  method: string;
  pattern: RegExp;
  parser: Middleware;
}

/**
 * Parses JSON bodies before routing (a malformed or oversized body is refused whatever the path),
 * within the limit of the route the request is for: its `bodyLimit`, else JSON_BODY_LIMIT.
 */
export function parseBody(routes: readonly RouteSpec[], defaultLimit: string): Middleware {
  const fallback = jsonParser(defaultLimit);
  const limits: Limit[] = routes
    .filter((route) => route.bodyLimit)
    .map((route) => ({
      method: route.method.toUpperCase(),
      pattern: routePattern(route.path),
      parser: jsonParser(route.bodyLimit!),
    }));

  const uploads: Limit[] = routes
    .filter((route) => route.upload)
    .map((route) => ({
      method: route.method.toUpperCase(),
      pattern: routePattern(route.path),
      parser: multipartParser(route.upload!),
    }));

  const raw: Limit[] = routes
    .filter((route) => route.rawBody)
    .map((route) => ({
      method: route.method.toUpperCase(),
      pattern: routePattern(route.path),
      parser: rawParser(route.bodyLimit ?? defaultLimit),
    }));

  return async (ctx, next) => {
    if (!takesBody(ctx.method)) return next();
    const rawRoute = raw.find((l) => l.method === ctx.method && l.pattern.test(ctx.path));
    if (rawRoute) return rawRoute.parser(ctx, next);
    if (ctx.is('multipart/form-data')) {
      const upload = uploads.find((l) => l.method === ctx.method && l.pattern.test(ctx.path));
      if (!upload)
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON (Content-Type: application/json).');
      return upload.parser(ctx, next);
    }
    const hasBody = Number(ctx.get('Content-Length') || 0) > 0 || ctx.get('Transfer-Encoding') !== '';
    if (hasBody && !ctx.is('application/json', 'application/*+json')) {
      // Refused before reading, rather than silently ignored.
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON (Content-Type: application/json).');
    }
    const limit = limits.find((l) => l.method === ctx.method && l.pattern.test(ctx.path));
    return (limit?.parser ?? fallback)(ctx, next);
  };
}

/**
 * A route's path as the router matches it (@koa/router's defaults: case-insensitive, an optional
 * trailing slash), so that `/API/V1/...` finds the same limit as `/api/v1/...` instead of another.
 */
export function routePattern(path: string): RegExp {
  const source = path
    .split(/(\{\w+\})/)
    .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source.replace(/\/$/, '')}/?$`, 'i');
}

function jsonParser(limit: string): Middleware {
  return koaBody({
    json: true,
    jsonStrict: true,
    multipart: false,
    urlencoded: false,
    text: false,
    jsonLimit: limit,
    onError: (err) => {
      throw err;
    },
  }) as unknown as Middleware;
}

/** `512kb`, `1mb`, `100` → bytes (the JSON_BODY_LIMIT forms). */
function sizeInBytes(limit: string): number {
  const match = /^(\d+)(b|kb|mb)?$/.exec(limit.toLowerCase());
  if (!match) throw new Error(`bad body limit ${limit}`);
  return Number(match[1]) * { b: 1, kb: 1024, mb: 1024 * 1024 }[match[2] ?? 'b']!;
}

/**
 * Signed callbacks: the exact bytes, kept in `ctx.state.rawBody` before anything parses them (a
 * signature covers bytes, and a parse-and-serialize round trip changes them).
 */
function rawParser(limit: string): Middleware {
  const max = sizeInBytes(limit);
  return async (ctx, next) => {
    (ctx.state as { rawBody?: Buffer }).rawBody = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const stop = () => {
        ctx.req.off('data', onData).off('end', onEnd).off('error', onError);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size <= max) return void chunks.push(chunk);
        // Stop reading without destroying the request: the 413 is still answered, and the
        // connection is closed after it rather than reused with the rest of the body unread.
        stop();
        ctx.req.pause();
        ctx.res.shouldKeepAlive = false;
        reject(new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than this route accepts.'));
      };
      const onEnd = () => {
        stop();
        resolve(Buffer.concat(chunks));
      };
      const onError = (err: Error) => {
        stop();
        reject(err);
      };
      ctx.req.on('data', onData).on('end', onEnd).on('error', onError);
    });
    await next();
  };
}

/**
 * multipart/form-data for routes that take a file: the other fields use bracket notation
 * (`lines[0][quantity]`), or a `payload` field carries the whole JSON body. Values stay strings
 * and the operation's schema coerces them. The file is read into memory (within `maxBytes`) and
 * its temporary copy removed at once.
 */
function multipartParser(upload: UploadSpec): Middleware {
  const parse = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formLimit: '2mb',
    formidable: { maxFileSize: upload.maxBytes, maxFiles: 1, maxFields: 5000, allowEmptyFiles: false },
    onError: (err) => {
      const text = err instanceof Error ? err.message : String(err);
      if (/maxFileSize|maxTotalFileSize/i.test(text)) {
        throw AppError.validation({ [upload.field]: [`must be at most ${upload.maxBytes / 1024 / 1024} MB`] });
      }
      if (/maxFiles/i.test(text)) throw AppError.validation({ [upload.field]: ['only one file is accepted'] });
      throw new AppError('BAD_REQUEST', `The multipart body could not be read: ${text}`);
    },
  }) as unknown as Middleware;
  return async (ctx, next) => {
    await parse(ctx, async () => {
      const files = ctx.request.files ?? {};
      try {
        ctx.request.body = (await formBody(ctx, upload, files)) as typeof ctx.request.body;
      } finally {
        await Promise.all(
          Object.values(files)
            .flat()
            .map((f) => rm(f.filepath, { force: true })),
        );
      }
      (ctx.state as { coerceBody?: boolean }).coerceBody = true;
      await next();
    });
  };
}

async function formBody(ctx: Context, upload: UploadSpec, files: NonNullable<Context['request']['files']>) {
  const fields = (ctx.request.body ?? {}) as Record<string, string>;
  let body: Record<string, unknown>;
  if (typeof fields.payload === 'string') {
    try {
      body = JSON.parse(fields.payload);
    } catch {
      throw new AppError('INVALID_JSON', 'The `payload` field is not valid JSON.');
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw AppError.validation({ payload: ['must be a JSON object'] });
    }
  } else {
    body = qs.parse(fields as Record<string, string>, { arrayLimit: 1000, depth: 5, parameterLimit: 5000 });
  }
  const others = Object.keys(files).filter((name) => name !== upload.field);
  if (others.length) throw AppError.validation({ [others[0]]: [`unexpected file; the file field is ${upload.field}`] });
  const file = [files[upload.field]].flat()[0];
  if (file) {
    const content = await readFile(file.filepath);
    body[upload.field] = { filename: file.originalFilename ?? upload.field, content: content.toString('base64') };
  }
  return body;
}
