import { ERROR_CATALOGUE, type ErrorCode } from './error-codes.js';

export { ERROR_CODES, type ErrorCode } from './error-codes.js';

/** A code's HTTP status, read from the catalogue (domain/shared/error-codes.ts). */
export function statusOf(code: ErrorCode): number {
  return ERROR_CATALOGUE[code].status;
}

export interface AppErrorExtra {
  /** Validation messages keyed by dotted path (`lines.0.quantity`); only for VALIDATION_ERROR. */
  fields?: Record<string, string[]>;
  /** False when a job must not be retried (the failure is recorded and the job stops). */
  retryable?: boolean;
  /** Extra fields merged into the rendered body (`existing_id`, `retry_after`, ...). */
  body?: Record<string, unknown>;
  /** Extra response headers (`Retry-After`, `Allow`). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class AppError extends Error {
  override readonly name = 'AppError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: AppErrorExtra = {},
  ) {
    super(message, { cause: extra.cause });
  }

  get status(): number {
    return statusOf(this.code);
  }

  static validation(fields: Record<string, string[]>, message = summarizeFields(fields)): AppError {
    return new AppError('VALIDATION_ERROR', message, { fields, retryable: false });
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

function summarizeFields(fields: Record<string, string[]>): string {
  const entries = Object.entries(fields);
  if (entries.length === 0) return 'The given data was invalid.';
  const [path, messages] = entries[0];
  const first = `${path} ${messages[0]}`;
  return entries.length === 1
    ? first
    : `${first} (and ${entries.length - 1} more error${entries.length > 2 ? 's' : ''})`;
}
