/**
 * The one table of error codes. A code's HTTP status lives here and nowhere else; the HTTP error
 * handler, the MCP tool renderer and the job runner all read it.
 */
export const ERROR_STATUS = {
  /** Malformed request: unparsable JSON, a bad header value. */
  BAD_REQUEST: 400,
  INVALID_JSON: 400,
  API_KEY_MISSING: 401,
  API_KEY_INVALID: 401,
  INVALID_API_KEY_FORMAT: 401,
  API_KEY_REVOKED: 401,
  UNAUTHENTICATED: 401,
  /** Tenant sign-in with an unknown e-mail or a wrong password (the two are not told apart). */
  INVALID_CREDENTIALS: 401,
  /** A provider callback whose signature is missing, wrong or outside the 300 s window. */
  WEBHOOK_SIGNATURE_INVALID: 401,
  INSUFFICIENT_BALANCE: 402,
  FORBIDDEN: 403,
  /** A dashboard user whose account an admin disabled. */
  ACCOUNT_DISABLED: 403,
  /** A cookie-authenticated mutation without the matching X-XSRF-TOKEN header. */
  CSRF_TOKEN_MISMATCH: 403,
  /** A download link that was altered or never issued by this service. */
  DOWNLOAD_LINK_INVALID: 403,
  API_KEY_ENVIRONMENT_MISMATCH: 403,
  /** A production API key asked for by a user whose e-mail is not confirmed yet. */
  EMAIL_NOT_VERIFIED: 403,
  KYC_REQUIRED: 403,
  TENANT_DISABLED: 403,
  FISCAL_SCOPE_DENIED: 403,
  /** A new key asked for scopes the credential creating it does not hold: a key never grants more than its creator. */
  SCOPE_NOT_GRANTED: 403,
  /** A sent credit note cannot be deleted or changed (spec: deleting a non-draft credit note is 403). */
  CREDIT_NOTE_IMMUTABLE: 403,
  NOT_FOUND: 404,
  /** The invoice has no such file (no `original_file` was uploaded with it). */
  FILE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  DUPLICATE_EXTERNAL_ID: 409,
  /** The seller already issued an invoice with this number (French numbering is unique per seller). */
  DUPLICATE_INVOICE_NUMBER: 409,
  /** The same supplier invoice is already registered (same file, provider id, or seller SIRET and number); `existing_id` names it. */
  DUPLICATE_INCOMING_INVOICE: 409,
  /** The invoice's files are not generated yet: retry shortly. */
  DOCUMENT_NOT_READY: 409,
  /** Generating the invoice's files failed; the message says why. */
  DOCUMENT_GENERATION_FAILED: 409,
  /** The invoice has no file in the format asked for: convert it first (POST /v1/invoices/convert). */
  CONVERSION_REQUIRED: 409,
  /** The invoice is in the fiscal ledger: its fiscal fields cannot change. */
  INVOICE_IMMUTABLE: 409,
  /** The seller already issued a credit note with this number (unique per seller, like invoice numbers). */
  DUPLICATE_CREDIT_NOTE_NUMBER: 409,
  /** The operation does not apply to the resource in its current state (deleting a sent invoice). */
  INVALID_STATE: 409,
  /** Production submission without a provider connection for the invoice's owner: connect one first. */
  PROVIDER_NOT_CONNECTED: 409,
  /** The same Idempotency-Key is being processed by another request right now. */
  IDEMPOTENCY_KEY_IN_USE: 409,
  /** A download link past its 15 minutes: ask for a new one. */
  DOWNLOAD_LINK_EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  /** Rendered as `{message, errors}`: the only code with the validation shape. */
  VALIDATION_ERROR: 422,
  /** The Idempotency-Key was first used with another request body. */
  IDEMPOTENCY_KEY_MISMATCH: 422,
  SUB_TENANT_HAS_COMPANIES: 422,
  /** The credit note goes beyond what remains creditable on its invoice, per line or in total; the body gives the figures. */
  CREDIT_EXCEEDS_REMAINING: 422,
  SUB_TENANT_HAS_FISCAL_ENTRIES: 422,
  /** The period holds ledger entries a FEC cannot show (not in euros, data missing); `entries` lists them. */
  FEC_NOT_EXPORTABLE: 422,
  /** A user keeps at most 20 webhook endpoints: delete one first. */
  WEBHOOK_ENDPOINT_LIMIT_REACHED: 422,
  /** The e-invoicing provider refused the request (a status it does not accept for this invoice). */
  PROVIDER_REFUSED: 422,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  PROVIDER_UNAVAILABLE: 503,
  FISCAL_KILLSWITCH_ACTIVE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

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
    return ERROR_STATUS[this.code];
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
