import { AppError } from '../shared/app-error.js';

/**
 * An RFC 3161 time-stamp authority (STYLE.md §5: a port with an HTTP adapter and a built-in
 * implementation). `stamp` takes a DER TimeStampReq and gives back the DER TimeStampResp; a
 * refusal is a response (status `rejection`), not a throw. An authority that cannot be reached
 * throws PROVIDER_UNAVAILABLE with `retryable: true`.
 */
export interface TimeStampAuthority {
  /** Where requests go; null for the built-in authority. */
  readonly url: string | null;
  stamp(request: Buffer): Promise<Buffer>;
  /** The CA certificates (PEM) its tokens must chain to. */
  trustedCaPems(): Promise<string[]>;
}

/** Any failure to reach the authority, as the error the job runner retries. */
export function tsaUnavailable(detail: string, cause?: unknown): AppError {
  return new AppError('PROVIDER_UNAVAILABLE', `The time-stamp authority did not answer: ${detail}`, {
    retryable: true,
    cause,
  });
}

declare module '../shared/deps.js' {
  interface Deps {
    /** RFC 3161 time-stamps of fiscal closings (TSA_URL, or the built-in local authority). */
    tsa: TimeStampAuthority;
  }
}
