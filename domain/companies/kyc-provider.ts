import { AppError } from '../shared/app-error.js';

/** What is submitted for verification: the company's legal identity. */
export interface KycSubject {
  companyId: string;
  siret: string;
  name: string;
  vatNumber: string | null;
  country: string;
}

/** A verification opened at the provider. */
export interface KycSession {
  /** The provider's id for this verification; the outcome is asked for by it. */
  reference: string;
  /** Where the company's representative completes the verification; null when none is needed. */
  verificationUrl: string | null;
}

/** The provider's answer; a rejection is a result, not a throw. */
export type KycOutcome = { status: 'pending' } | { status: 'approved' } | { status: 'rejected'; reason: string };

/**
 * Identity verification of a company (KYB) at a third party. Adapters bound their calls with a
 * timeout, and turn network errors and 5xx into PROVIDER_UNAVAILABLE (retryable). The only
 * implementation so far is the simulator: no public contract of a real KYC provider is known yet
 * (spec/provider-apis.md), and an HTTP adapter will implement this same interface.
 */
export interface KycProvider {
  start(subject: KycSubject): Promise<KycSession>;
  /** `siret` lets a stateless adapter (the simulator, shared by web and worker) answer; others use the reference. */
  check(session: { reference: string; siret: string }): Promise<KycOutcome>;
}

/** Any failure of a provider call, as the one error the API and the job runner understand. */
export function providerUnavailable(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('PROVIDER_UNAVAILABLE', 'The identity verification provider did not answer. Retry later.', {
    retryable: true,
    cause: err,
  });
}

declare module '../shared/deps.js' {
  interface Deps {
    /** Company identity verification (the simulator until a real provider's contract is known). */
    kycProvider: KycProvider;
  }
}
