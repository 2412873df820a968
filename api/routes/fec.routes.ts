import { exportFec } from '../../domain/ledger/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

/** The FEC download (spec "Fiscal": `GET /v1/tenant/fiscal/fec`, tab-separated), scope `fiscal:read`. */
export const fecRoutes: RouteSpec[] = [
  {
    tag: 'Fiscal',
    auth: ['tenant_key'],
    method: 'get',
    path: '/api/v1/tenant/fiscal/fec',
    operation: exportFec,
    file: ['text/plain'],
  },
];
