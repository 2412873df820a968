/**
 * The error catalogue: every code the service answers with, declared once with its HTTP status and
 * what it means. AppError's code type, the HTTP status of an error, the OpenAPI document's enum of
 * `code` and the error table of docs/api/conventions.md all come from this list; a new code is a new row.
 */
export const ERROR_CATALOGUE = {
  BAD_REQUEST: { status: 400, description: 'Malformed request: a bad header value, a bad command line.' },
  INVALID_JSON: { status: 400, description: 'The request body is not valid JSON.' },
  ONBOARDING_SESSION_EXPIRED: {
    status: 400,
    description: 'The onboarding session is past its `expires_at` (or already finished): start a new session.',
  },
  ONBOARDING_STATE_INVALID: {
    status: 400,
    description: 'The OAuth `state` is not the one issued for this onboarding session, or it was already used.',
  },
  ONBOARDING_REFUSED: {
    status: 400,
    description:
      'The provider refused the company (verification failed or access denied): the onboarding cannot finish.',
  },
  ALREADY_COMPLETED: { status: 400, description: 'A completed signature request cannot be cancelled.' },
  CANNOT_REMIND: {
    status: 400,
    description: 'No reminder for this signature request: it is not pending, or one was sent less than an hour ago.',
  },
  NO_PENDING_SIGNERS: { status: 400, description: 'Every signer of the signature request has already answered.' },
  STRIPE_SIGNATURE_INVALID: {
    status: 400,
    description:
      "A call to /webhooks/stripe whose Stripe-Signature is missing, wrong or outside the 300 s window (Stripe's convention: 400).",
  },
  API_KEY_MISSING: { status: 401, description: 'The API key header is absent.' },
  API_KEY_INVALID: { status: 401, description: 'Unknown API key.' },
  INVALID_API_KEY_FORMAT: { status: 401, description: 'The API key does not match the key format.' },
  API_KEY_REVOKED: { status: 401, description: 'The API key was revoked or has expired.' },
  AUTHORIZATION_CODE_INVALID: {
    status: 401,
    description: 'Unknown or already used onboarding authorization code; a replayed code also revokes the key it gave.',
  },
  UNAUTHENTICATED: { status: 401, description: 'No valid session or access token.' },
  INVALID_CREDENTIALS: {
    status: 401,
    description: 'Sign-in with an unknown e-mail or a wrong password (the two are not told apart).',
  },
  WEBHOOK_SIGNATURE_INVALID: {
    status: 401,
    description: 'A provider callback whose signature is missing, wrong or outside the 300 s window.',
  },
  INSUFFICIENT_BALANCE: { status: 402, description: 'The prepaid balance does not cover this paid operation.' },
  FORBIDDEN: { status: 403, description: 'The credential may not do this (scope, caller kind, admin permission).' },
  ACCOUNT_DISABLED: { status: 403, description: 'A dashboard user whose account an admin disabled.' },
  COMPANY_DISABLED: {
    status: 403,
    description:
      'An API key restricted to a company that an admin disabled; it works again once the company is enabled.',
  },
  CSRF_TOKEN_MISMATCH: {
    status: 403,
    description: 'A cookie-authenticated mutation without the matching X-XSRF-TOKEN header.',
  },
  DOWNLOAD_LINK_INVALID: {
    status: 403,
    description: 'A download link that was altered or never issued by this service.',
  },
  API_KEY_ENVIRONMENT_MISMATCH: {
    status: 403,
    description: 'A sandbox key on a production route, or the reverse.',
  },
  EMAIL_NOT_VERIFIED: {
    status: 403,
    description: 'A production API key asked for by a user whose e-mail is not confirmed yet.',
  },
  KYC_REQUIRED: { status: 403, description: 'KYC/KYB is incomplete: production is not open yet.' },
  TENANT_DISABLED: { status: 403, description: 'The tenant is deactivated.' },
  FISCAL_SCOPE_DENIED: { status: 403, description: 'The key lacks the fiscal scope this route needs.' },
  SCOPE_NOT_GRANTED: {
    status: 403,
    description: 'A new key asked for scopes its creator does not hold: a key never grants more than its creator.',
  },
  CREDIT_NOTE_IMMUTABLE: {
    status: 403,
    description:
      'A sent credit note cannot be deleted or changed (the specification: deleting a non-draft one is 403).',
  },
  NOT_FOUND: { status: 404, description: 'Unknown id, route, or an id that belongs to someone else.' },
  FILE_NOT_FOUND: {
    status: 404,
    description: 'The invoice has no such file (no `original_file` was uploaded with it).',
  },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The route exists but not with this method (see `Allow`).' },
  PAYMENT_NOT_COMPLETED: {
    status: 409,
    description:
      'A top-up confirmed before its payment succeeded (still open, processing, declined or cancelled), or for another amount.',
  },
  CONFLICT: { status: 409, description: 'The request conflicts with existing data (a duplicate e-mail, SIRET, ...).' },
  DUPLICATE_EXTERNAL_ID: {
    status: 409,
    description: 'The `external_id` is already used by this owner and environment; `existing_id` names it.',
  },
  DUPLICATE_INVOICE_NUMBER: {
    status: 409,
    description: 'The seller already issued an invoice with this number (numbering is unique per seller).',
  },
  DUPLICATE_INCOMING_INVOICE: {
    status: 409,
    description:
      'The same supplier invoice is already registered (same file, provider id, or seller SIRET and number); `existing_id` names it.',
  },
  DOCUMENT_NOT_READY: { status: 409, description: "The invoice's files are not generated yet: retry shortly." },
  DOCUMENT_GENERATION_FAILED: {
    status: 409,
    description: "Generating the invoice's files failed; the message says why.",
  },
  CONVERSION_REQUIRED: {
    status: 409,
    description: 'The invoice has no file in the format asked for: convert it first (POST /v1/invoices/convert).',
  },
  INVOICE_IMMUTABLE: {
    status: 409,
    description: 'The invoice is in the fiscal ledger: its fiscal fields cannot change.',
  },
  DUPLICATE_CREDIT_NOTE_NUMBER: {
    status: 409,
    description: 'The seller already issued a credit note with this number (unique per seller).',
  },
  INVALID_STATE: {
    status: 409,
    description:
      'The operation does not apply to the resource in its current state (deleting a sent invoice, cancelling a failed signature request).',
  },
  SIGNATURE_NOT_COMPLETED: {
    status: 409,
    description: 'The signed document and the proof file exist once every signer has signed.',
  },
  PROVIDER_NOT_CONNECTED: {
    status: 409,
    description: "Production submission without a provider connection for the invoice's owner: connect one first.",
  },
  SIGNATURE_PROVIDER_NOT_CONFIGURED: {
    status: 409,
    description: 'No signature provider account is configured yet: an admin saves one first.',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    description: 'The same Idempotency-Key is being processed by another request right now.',
  },
  AUTHORIZATION_CODE_EXPIRED: {
    status: 410,
    description: 'The onboarding authorization code is past its 5 minutes: run the onboarding again.',
  },
  DOWNLOAD_LINK_EXPIRED: { status: 410, description: 'A download link past its 15 minutes: ask for a new one.' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The request body is larger than the route accepts.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The request body is not JSON (or an accepted file type).' },
  VALIDATION_ERROR: {
    status: 422,
    description: 'The input is invalid; `errors` lists the messages by dotted path (`lines.0.quantity`).',
  },
  IDEMPOTENCY_KEY_MISMATCH: {
    status: 422,
    description: 'The Idempotency-Key was first used with another request body.',
  },
  SUB_TENANT_HAS_COMPANIES: {
    status: 422,
    description: 'Sub-tenant deletion refused: it still has companies (no cascade).',
  },
  CREDIT_EXCEEDS_REMAINING: {
    status: 422,
    description:
      'The credit note goes beyond what remains creditable on its invoice, per line or in total; the body gives the figures.',
  },
  DEBIT_EXCEEDS_BALANCE: {
    status: 422,
    description: 'An admin debit larger than the balance: a balance never goes below zero; the body gives the figures.',
  },
  SUB_TENANT_HAS_FISCAL_ENTRIES: {
    status: 422,
    description: 'Sub-tenant deletion refused: it has fiscal ledger entries.',
  },
  FEC_NOT_EXPORTABLE: {
    status: 422,
    description:
      'The period holds ledger entries a FEC cannot show (not in euros, data missing); `entries` lists them.',
  },
  WEBHOOK_ENDPOINT_LIMIT_REACHED: {
    status: 422,
    description: 'A user keeps at most 20 webhook endpoints: delete one first.',
  },
  PROVIDER_REFUSED: {
    status: 422,
    description:
      'The e-invoicing or signature provider refused the request (a status it does not accept, credentials it does not know).',
  },
  SIGNATURE_NOT_PENDING: {
    status: 422,
    description:
      'Sandbox: the signature request is no longer pending (already completed, cancelled, refused, expired or failed).',
  },
  RATE_LIMIT_EXCEEDED: { status: 429, description: 'Too many requests: wait `retry_after` seconds.' },
  INTERNAL_ERROR: {
    status: 500,
    description: 'An unforeseen error; nothing internal is shown: quote `request_id` to support.',
  },
  SERVICE_UNAVAILABLE: { status: 503, description: 'The service cannot answer right now (a dependency is down).' },
  PROVIDER_UNAVAILABLE: { status: 503, description: 'The e-invoicing, signing or payment provider is unavailable.' },
  FISCAL_KILLSWITCH_ACTIVE: {
    status: 503,
    description: 'The fiscal kill switch is on: invoice and credit-note creation is blocked.',
    // The specification publishes both spellings: `code` is this one, `error` the other.
    error: 'fiscal_kill_switch_active',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export interface ErrorCodeEntry {
  status: number;
  description: string;
  /** The `error` word when it is not the code in lower case. */
  error?: string;
}

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Every code, in catalogue order (the OpenAPI enum). */
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** The `error` word of a code: the code in lower case unless the catalogue names another. */
export function errorWordOf(code: ErrorCode): string {
  const entry: ErrorCodeEntry = ERROR_CATALOGUE[code];
  return entry.error ?? code.toLowerCase();
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_CATALOGUE, value);
}
