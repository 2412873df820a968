/**
 * The signature provider port (provider-apis.md §2): what the service asks of the provider that
 * carries production requests. The Openapi EU-SES adapter implements it; the sandbox (and production
 * while ENABLE_SIMULATORS is on) uses the service's own signing page instead, which needs no port.
 * Calls are made by workers, never inside a transaction. A provider that cannot be reached (network,
 * timeout, 5xx, 429) throws AppError('PROVIDER_UNAVAILABLE', retryable); a refusal of the request
 * itself throws AppError('PROVIDER_REFUSED'), not retried.
 */

/** One signer as the provider takes it. */
export interface ProviderSignerInput {
  name: string;
  surname: string;
  email: string | null;
  mobile: string | null;
  authentication: ('email' | 'sms')[];
  message: string | null;
  /** Where the signer signs: page (1-based) and the box's top-left corner in PDF points from the top-left. */
  signatures: { page: number; x: number; y: number }[];
}

export interface ProviderCreateInput {
  document: Buffer;
  signers: ProviderSignerInput[];
  /** Our callback URL, with the request's opaque token. */
  callbackUrl: string;
  signatureMode: ('typed' | 'drawn')[];
  completeUrl: string | null;
  cancelUrl: string | null;
  iframeAncestors: string[];
}

export type ProviderSignerState = 'pending' | 'signed' | 'refused';

/** A request as the provider reports it (its detail). */
export interface ProviderSignature {
  id: string;
  /** WAIT_VALIDATION, WAIT_SIGN, WAIT_SIGNER(S), DONE, ERROR. */
  state: string;
  signers: {
    id: string;
    email: string | null;
    mobile: string | null;
    state: ProviderSignerState;
    /** The signer's signing link. */
    url: string | null;
    /** When the provider says the signer signed, if it says. */
    signedAt: string | null;
    /** A refusal's reason, if the provider gives one. */
    reason: string | null;
  }[];
  error: { number: number | null; message: string } | null;
  createdAt: string | null;
}

/** A request the provider already holds, found without its id (a creation whose answer was lost). */
export interface ProviderSummary {
  id: string;
  state: string;
  createdAt: string | null;
}

export interface SignatureProvider {
  create(input: ProviderCreateInput): Promise<ProviderSignature>;
  detail(id: string): Promise<ProviderSignature>;
  /** Requests created since `since`, most recent first (at most 100). */
  listSince(since: Date): Promise<ProviderSummary[]>;
  /** The signed PDF (the provider keeps it 30 days). */
  signedDocument(id: string): Promise<Buffer>;
  /** The audit trail as a PDF: the proof file. */
  auditPdf(id: string): Promise<Buffer>;
  /** Deletes the request at the provider (a cancelled or expired request); a missing one is no error. */
  remove(id: string): Promise<void>;
}
