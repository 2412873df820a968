/**
 * Public surface of the transmission context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export type { EInvoicingProvider, ProviderAccountRef, UploadResult } from './einvoicing-provider.js';
export { einvoicingProviderFor, providerKindFor } from './einvoicing-providers.js';
export { cleanProviderEvent } from './lifecycle-events.js';
export { errorMessageOf, fetchWithTimeout, providerUnavailable } from './superpdp-http.js';
export { openStoredAccessToken, SuperPdpTokens, sealClientSecret, sealedConnectionTokens } from './superpdp-tokens.js';
