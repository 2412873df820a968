/**
 * The e-invoicing provider port (spec/DECISIONS.md "Providers", provider-apis.md §1): an HTTP adapter
 * for SuperPDP and a built-in simulator implement it. Calls are made by workers, never inside a
 * transaction. A refusal by the provider is a result; a provider that cannot be reached (network,
 * 5xx, 403 while the company is under review, 429) throws AppError('PROVIDER_UNAVAILABLE') with
 * `retryable: true`, so the job is retried.
 */

/** Whose provider account a call uses: a row of our provider connections (tokens live there, encrypted). */
export interface ProviderAccountRef {
  /** Our connection row id. */
  id: string;
  tenantId: string;
  environment: 'sandbox' | 'production';
}

/** One lifecycle event as the provider logged it (`api:*`, `fr:2xx`, `ppf:*`). */
export interface ProviderEvent {
  /** The provider's event id (a positive integer, as text): the cursor of the event stream. */
  id: string;
  /** The provider's invoice id (our `pdp_id`). */
  invoiceId: string;
  statusCode: string;
  statusText: string;
  /** The reason given with an unfavourable status (AFNOR code and text), if any. */
  reason: string | null;
  createdAt: string;
}

export type ProcessingRule = 'B2B' | 'B2BInt' | 'B2C';

export interface UploadRequest {
  /** Our invoice id or number, at most 36 characters: the provider's `external_id`. */
  externalId: string;
  processingRule: ProcessingRule;
  file: { bytes: Buffer; contentType: 'application/pdf' | 'application/xml'; filename: string };
}

export type UploadResult =
  | { outcome: 'accepted'; pdpId: string; events: ProviderEvent[] }
  /** The provider refused the file (400 pre-check, invalid syntax): final, not retried. */
  | { outcome: 'refused'; httpStatus: number; message: string };

/** A page of a cursor stream (ids ascending); `hasAfter` says whether to ask again from the last id. */
export interface Page<T> {
  items: T[];
  hasAfter: boolean;
}

/** An invoice received by the company, as the inbox lists it. */
export interface IncomingSummary {
  /** The provider's invoice id: the cursor of the inbox stream, and the key that recognises a repeat. */
  pdpId: string;
  createdAt: string;
}

/** A lifecycle status we send about an invoice (buyer decisions on incoming invoices, or `fr:212`). */
export interface StatusToSend {
  invoiceId: string;
  /** `fr:204` … `fr:212`, `fr:220`. */
  statusCode: string;
  /** Required for unfavourable statuses: an AFNOR reason code (e.g. `NON_CONFORME`) and free text (≤ 900). */
  reason?: { code: string; text?: string };
  /** With `fr:211`: the buyer's reference of the payment, for the supplier to reconcile it. */
  paymentReference?: string;
}

export interface EInvoicingProvider {
  /** Uploads a document. Never called twice for one invoice: callers first look it up by `externalId`. */
  upload(account: ProviderAccountRef, request: UploadRequest): Promise<UploadResult>;
  /** The provider's id of an invoice we uploaded with this `externalId`, if it has one (crash recovery). */
  findUploaded(account: ProviderAccountRef, externalId: string): Promise<string | null>;
  /** Lifecycle events of every invoice of the account after the cursor (null: from the start). */
  listEvents(account: ProviderAccountRef, afterId: string | null, limit: number): Promise<Page<ProviderEvent>>;
  /** Invoices received by the account after the cursor (null: from the start). */
  listIncoming(account: ProviderAccountRef, afterId: string | null, limit: number): Promise<Page<IncomingSummary>>;
  /** The original file of an invoice (PDF or XML, as received). */
  downloadOriginal(account: ProviderAccountRef, pdpId: string): Promise<{ bytes: Buffer; contentType: string }>;
  /** Sends a lifecycle status about an invoice; returns the event the provider logged. */
  sendStatus(account: ProviderAccountRef, status: StatusToSend): Promise<ProviderEvent>;
}

declare module '../shared/deps.js' {
  interface Deps {
    /** E-invoicing provider: the simulator in sandbox, SuperPDP in production when configured. */
    einvoicingProvider: EInvoicingProvider;
  }
}
