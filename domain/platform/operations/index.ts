/** The operations of the platform context: what routes, job handlers and the CLI call through execute(). */

export { getPricing } from './get-pricing.js';
export { healthCheck } from './health-check.js';
export { purgeIdempotencyKeys } from './purge-idempotency-keys.js';
