/**
 * Public surface of the users context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { GoogleSimulator } from './google-simulator.js';
export { type IdentityProvider, identityProviderFor } from './identity-providers.js';
export { OAUTH_STATE_TTL_SECONDS, oauthStateNonce } from './oauth-state.js';
export { hashPassword, verifyPassword } from './password.js';
export { publicBaseUrlOf } from './public-url.js';
export { findUser } from './user-store.js';
