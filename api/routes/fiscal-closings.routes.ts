import {
  downloadAnchorCaCertificate,
  downloadAnchorToken,
  listFiscalAnchors,
} from '../../domain/anchoring/operations/index.js';
import { listFiscalClosings, performDailyClosing } from '../../domain/ledger/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const BASE = '/api/v1/tenant/fiscal';
const common = { tag: 'Fiscal', auth: ['tenant_key'] } as const;

/**
 * Spec "Fiscal [TenantKey + scope]": closings (`fiscal:write` to close a day by hand) and their
 * RFC 3161 anchors, with the token and the CA certificate of each (beyond the specification's
 * list, so that anyone can run `openssl ts -verify` on them).
 */
export const fiscalClosingRoutes: RouteSpec[] = [
  { ...common, method: 'get', path: `${BASE}/closings`, operation: listFiscalClosings, envelope: 'raw' },
  {
    ...common,
    method: 'post',
    path: `${BASE}/closings/daily`,
    operation: performDailyClosing,
    message: 'Daily closing recorded.',
  },
  { ...common, method: 'get', path: `${BASE}/anchors`, operation: listFiscalAnchors, envelope: 'raw' },
  {
    ...common,
    method: 'get',
    path: `${BASE}/anchors/{id}/token`,
    operation: downloadAnchorToken,
    file: ['application/octet-stream'],
    errors: [409],
  },
  {
    ...common,
    method: 'get',
    path: `${BASE}/anchors/{id}/ca-certificate`,
    operation: downloadAnchorCaCertificate,
    file: ['application/x-pem-file'],
    errors: [409],
  },
];
