/**
 * Public surface of the platform context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { idempotencyLeasesOf } from './idempotency-leases.js';
export {
  type ClaimResult,
  claimIdempotencyKey,
  completeIdempotencyKey,
  contextOf,
  releaseIdempotencyKey,
  type StoredResponse,
} from './idempotency-store.js';
export {
  endMcpSession,
  MCP_SESSION_IDLE_SECONDS,
  type McpSessionOwner,
  openMcpSession,
  touchMcpSession,
} from './mcp-session-store.js';
export { countOperationLimit } from './operation-limit.js';
export { RateCounters } from './rate-counters.js';
export { counterLimiter, limitNameOf, type RateLimitClass, scaledLimit } from './rate-limits.js';
