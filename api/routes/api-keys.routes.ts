import { createApiKey, getApiKey, listApiKeys, revokeApiKey } from '../../domain/tenants/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

/** A user's API keys, managed from the dashboard ([Bearer] or the session cookie). */
export const apiKeyRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/api/v1/api-keys',
    operation: listApiKeys,
    tag: 'API keys',
    auth: ['bearer', 'cookie'],
    envelope: 'raw',
  },
  {
    method: 'post',
    path: '/api/v1/api-keys',
    operation: createApiKey,
    tag: 'API keys',
    auth: ['bearer', 'cookie'],
    status: 201,
    envelope: 'raw',
  },
  { method: 'get', path: '/api/v1/api-keys/{id}', operation: getApiKey, tag: 'API keys', auth: ['bearer', 'cookie'] },
  {
    method: 'delete',
    path: '/api/v1/api-keys/{id}',
    operation: revokeApiKey,
    tag: 'API keys',
    auth: ['bearer', 'cookie'],
    envelope: 'raw',
  },
];
