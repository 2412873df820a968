/** Public surface of the auth context for code outside it: what other contexts, api/ and workers/ use. */

export { issueAccessToken, revokeAccessToken } from './access-token-store.js';
export {
  assertLinkCredentialActive,
  type LinkCredentialClaims,
  linkCredentialOf,
  readLinkedFile,
} from './link-credential.js';
export { loginThrottle } from './login-throttle.js';
export { resolveAccessToken, resolveApiKey } from './resolve-credential.js';
export { openToken, signToken, verifyToken } from './signed-token.js';
