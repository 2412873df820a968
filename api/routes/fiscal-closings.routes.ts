import { downloadAnchorCaCertificate } from '../../domain/anchoring/operations/download-anchor-ca-certificate.js';
import { downloadAnchorToken } from '../../domain/anchoring/operations/download-anchor-token.js';
import { listFiscalAnchors } from '../../domain/anchoring/operations/list-fiscal-anchors.js';
import { listFiscalClosings } from '../../domain/ledger/operations/list-fiscal-closings.js';
import { performDailyClosing } from '../../domain/ledger/operations/perform-daily-closing.js';
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
