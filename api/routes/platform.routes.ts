import { getPricing, healthCheck } from '../../domain/platform/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

/**
 * Health is not rate limited: load balancers and orchestrators probe it from a few addresses, and a
 * 429 there would take a healthy process out of rotation. Counting it would also cost a counter
 * write as large as the check itself (one database round trip), so a limit would not protect anything.
 */
const health = (path: string): RouteSpec => ({
  method: 'get',
  path,
  operation: healthCheck,
  tag: 'Health',
  auth: ['none'],
  envelope: 'raw',
  rateLimit: 'none',
});

export const platformRoutes: RouteSpec[] = [
  health('/api/health'),
  health('/api/v1/health'),
  { method: 'get', path: '/api/v1/pricing', operation: getPricing, tag: 'Health', auth: ['none'] },
];
