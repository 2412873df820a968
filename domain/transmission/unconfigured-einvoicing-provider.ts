import { AppError } from '../shared/app-error.js';
import type { EInvoicingProvider } from './einvoicing-provider.js';

const unavailable = (): Promise<never> =>
  Promise.reject(
    new AppError('PROVIDER_UNAVAILABLE', 'No e-invoicing provider is configured: no provider configured.', {
      retryable: true,
    }),
  );

/** The provider when none is configured: every call fails as unavailable (retryable). Placeholder until the adapters land. */
export const unconfiguredEInvoicingProvider: EInvoicingProvider = {
  upload: unavailable,
  findUploaded: unavailable,
  listEvents: unavailable,
  listIncoming: unavailable,
  downloadOriginal: unavailable,
  sendStatus: unavailable,
};
