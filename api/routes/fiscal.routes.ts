import { checkFiscalIntegrity } from '../../domain/ledger/operations/check-fiscal-integrity.js';
import { checkFiscalIntegrityForDate } from '../../domain/ledger/operations/check-fiscal-integrity-for-date.js';
import { listFiscalIntegrityChecks } from '../../domain/ledger/operations/list-fiscal-integrity-checks.js';
import type { RouteSpec } from '../http/route-spec.js';

const BASE = '/api/v1/tenant/fiscal';
const common = { tag: 'Fiscal', auth: ['tenant_key'] } as const;

/** Spec "Fiscal [TenantKey + scope]": `fiscal:read` for GET routes. */
export const fiscalRoutes: RouteSpec[] = [
  { ...common, method: 'get', path: `${BASE}/integrity`, operation: checkFiscalIntegrity, envelope: 'raw' },
  {
    ...common,
    method: 'get',
    path: `${BASE}/integrity/history`,
    operation: listFiscalIntegrityChecks,
    envelope: 'raw',
  },
  {
    ...common,
    method: 'get',
    path: `${BASE}/integrity/{date}`,
    operation: checkFiscalIntegrityForDate,
    envelope: 'raw',
  },
];
