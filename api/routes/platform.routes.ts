import { getPricing } from '../../domain/platform/operations/get-pricing.js';
import { healthCheck } from '../../domain/platform/operations/health-check.js';
import type { RouteSpec } from '../http/route-spec.js';

export const platformRoutes: RouteSpec[] = [
  { method: 'get', path: '/api/health', operation: healthCheck, tag: 'Health', auth: ['none'], envelope: 'raw' },
  { method: 'get', path: '/api/v1/health', operation: healthCheck, tag: 'Health', auth: ['none'], envelope: 'raw' },
  { method: 'get', path: '/api/v1/pricing', operation: getPricing, tag: 'Health', auth: ['none'] },
];
