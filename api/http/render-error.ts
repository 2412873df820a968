import { AppError, ERROR_STATUS, type ErrorCode, isAppError } from '../../domain/shared/app-error.js';
import { isCreditNoteLockViolation, isFiscalLockViolation } from '../../domain/shared/pg-errors.js';

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
 * The one AppError → HTTP map (spec/DECISIONS.md, "Errors"): 422 validation as `{message, errors}`,
 * everything else as `{message, error, code, error_code}` plus the error's extra fields.
 */
export function renderError(err: unknown, requestId: string): RenderedError {
  const appError = toAppError(err);
  if (!appError) {
    return {
      status: 500,
      body: shapeOf('INTERNAL_ERROR', `An internal error occurred. Quote request id ${requestId} to support.`, {
        request_id: requestId,
      }),
      headers: {},
      unexpected: true,
    };
  }
  const headers = appError.extra.headers ?? {};
  if (appError.code === 'VALIDATION_ERROR') {
    return {
      status: 422,
      body: { message: appError.message, errors: appError.extra.fields ?? {} },
      headers,
      unexpected: false,
    };
  }
  const extra = appError.code === 'INTERNAL_ERROR' ? { request_id: requestId } : {};
  return {
    status: appError.status,
    body: shapeOf(appError.code, appError.message, { ...appError.extra.body, ...extra }),
    headers,
    unexpected: false,
  };
}

function shapeOf(code: ErrorCode, message: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { message, error: code.toLowerCase(), code, error_code: code, ...extra };
}

/**
 * Errors from Koa, co-body and raw-body carry a 4xx `status` (co-body sets no `expose`); map the known
 * ones, and the database's refusal to change an issued invoice.
 */
function toAppError(err: unknown): AppError | null {
  if (isAppError(err)) return err;
  // The last line of defence of issued invoices: a write the domain let through is still a 409, never a 500.
  if (isFiscalLockViolation(err)) {
    return new AppError(
      'INVOICE_IMMUTABLE',
      'This invoice is in the fiscal ledger: its fiscal fields and lines cannot change. Only metadata and archive_enabled can; correct an issued invoice with a credit note.',
    );
  }
  if (isCreditNoteLockViolation(err)) {
    return new AppError(
      'CREDIT_NOTE_IMMUTABLE',
      'This credit note is issued: its content cannot change, and once sent it cannot change at all. Issue another credit note instead.',
    );
  }
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
  if (code && ERROR_STATUS[code] === http.status) return new AppError(code, http.message ?? code);
  return null;
}
