import {
  createOpenapiToken,
  deleteOpenapiToken,
  getOpenapiConfig,
  getOpenapiCredit,
  listOpenapiTokens,
  refreshOpenapiToken,
  saveOpenapiConfig,
  verifyOpenapiConfig,
} from '../../domain/signatures/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const BASE = '/api/v1/admin/openapi';
/** Spec "Admin [Bearer, permission admin access]": the dashboard's token or cookie session, never an API key. */
const admin = { tag: 'Admin', auth: ['bearer', 'cookie'] } as const;
/** Routes that call Openapi: not configured (409), refused (422), unreachable (503). */
const provider = [409, 422, 503] as const;

/** Spec "Admin", signature-provider configuration: the operator's Openapi account, its tokens and credit. */
export const adminOpenapiRoutes: RouteSpec[] = [
  { ...admin, method: 'get', path: `${BASE}/config`, operation: getOpenapiConfig },
  {
    ...admin,
    method: 'post',
    path: `${BASE}/config`,
    operation: saveOpenapiConfig,
    message: 'Signature provider configuration saved. Verify it next: POST /api/v1/admin/openapi/config/verify.',
  },
  { ...admin, method: 'post', path: `${BASE}/config/verify`, operation: verifyOpenapiConfig, errors: provider },
  { ...admin, method: 'get', path: `${BASE}/credit`, operation: getOpenapiCredit, errors: provider },
  { ...admin, method: 'get', path: `${BASE}/tokens`, operation: listOpenapiTokens, errors: provider },
  {
    ...admin,
    method: 'post',
    path: `${BASE}/tokens`,
    operation: createOpenapiToken,
    status: 201,
    message: 'Token created. Store it now: it is shown only once.',
    errors: provider,
  },
  {
    ...admin,
    method: 'delete',
    path: `${BASE}/tokens/{id}`,
    operation: deleteOpenapiToken,
    message: 'Token deleted.',
    errors: provider,
  },
  {
    ...admin,
    method: 'post',
    path: `${BASE}/tokens/{id}/refresh`,
    operation: refreshOpenapiToken,
    message: 'Token refreshed: the old one no longer works. Store the new one now: it is shown only once.',
    errors: provider,
  },
];
