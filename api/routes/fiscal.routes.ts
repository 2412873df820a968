import {
  activateKillSwitch,
  checkFiscalIntegrity,
  checkFiscalIntegrityForDate,
  deactivateKillSwitch,
  getKillSwitchStatus,
  listFiscalEntries,
  listFiscalIntegrityChecks,
} from '../../domain/ledger/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const BASE = '/api/v1/tenant/fiscal';
const common = { tag: 'Fiscal', auth: ['tenant_key'] } as const;

/** Spec "Fiscal [TenantKey + scope]": `fiscal:read` for GET routes, `fiscal:admin` for the kill switch. */
export const fiscalRoutes: RouteSpec[] = [
  { ...common, method: 'get', path: `${BASE}/entries`, operation: listFiscalEntries, envelope: 'raw' },
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
  { ...common, method: 'get', path: `${BASE}/kill-switch/status`, operation: getKillSwitchStatus },
  {
    ...common,
    method: 'post',
    path: `${BASE}/kill-switch/activate`,
    operation: activateKillSwitch,
    message: 'Fiscal kill switch activated: invoice and credit-note creation is stopped.',
  },
  {
    ...common,
    method: 'post',
    path: `${BASE}/kill-switch/deactivate`,
    operation: deactivateKillSwitch,
    message: 'Fiscal kill switch deactivated: creation may resume.',
  },
];
