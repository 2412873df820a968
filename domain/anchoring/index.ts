/**
 * Public surface of the anchoring context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { type AnchorRow, insertPendingAnchor } from './anchor-store.js';
export { timeStampAuthorityFor, trustedCaPems } from './time-stamp-authorities.js';
export { type TimeStampAuthority, tsaUnavailable } from './time-stamp-authority.js';
export { buildTimeStampRequest, randomNonce } from './time-stamp-request.js';
export { verifyTimeStampToken } from './verify-time-stamp-token.js';
