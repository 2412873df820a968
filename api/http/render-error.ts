import { AppError, type ErrorCode, statusOf } from '../../domain/shared/app-error.js';
import { asAppError, errorBody } from '../../domain/shared/error-body.js';

export interface RenderedError {
  status: number;
  body: Record<string, unknown>;
  headers: Record<string, string>;
  /** True for errors that were not foreseen: logged with their stack, rendered generically. */
  unexpected: boolean;
}

/** HTTP errors raised by Koa's own stack (body parser, router), by status. */
const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/**
 * A thrown value → the HTTP response: the status from the error catalogue, the body from
 * `errorBody` (domain/shared/error-body.ts, the shape every surface shares): 422 validation as
 * `{message, errors}`, everything else as `{message, error, code, error_code}` plus the error's extra fields.
 */
export function renderError(err: unknown, requestId: string): RenderedError {
  const appError = toAppError(err);
  return {
    status: appError ? appError.status : 500,
    body: errorBody(appError ?? err, { requestId, http: true }) as Record<string, unknown>,
    headers: appError?.extra.headers ?? {},
    unexpected: !appError,
  };
}

/**
 * Errors from Koa, co-body and raw-body carry a 4xx `status` (co-body sets no `expose`): map the
 * known ones; the domain's own errors (and the database's locks) are read by `asAppError`.
 */
function toAppError(err: unknown): AppError | null {
  const known = asAppError(err);
  if (known) return known;
  const http = err as { status?: number; type?: string; message?: string; headers?: Record<string, string> };
  if (!http || typeof http.status !== 'number' || http.status < 400 || http.status > 499) return null;
  if (http.type === 'entity.parse.failed' || (http.status === 400 && /JSON/i.test(http.message ?? ''))) {
    return new AppError('INVALID_JSON', 'The request body is not valid JSON.');
  }
  if (http.status === 413) {
    return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than this route accepts.');
  }
  if (http.status === 405) {
    return new AppError('METHOD_NOT_ALLOWED', http.message ?? 'Method not allowed.', { headers: http.headers });
  }
  const code = HTTP_STATUS_CODES[http.status];
  if (code && statusOf(code) === http.status) return new AppError(code, http.message ?? code);
  return null;
}
