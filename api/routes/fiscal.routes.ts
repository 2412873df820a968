import { checkFiscalIntegrity } from '../../domain/ledger/operations/check-fiscal-integrity.js';
import { checkFiscalIntegrityForDate } from '../../domain/ledger/operations/check-fiscal-integrity-for-date.js';
import { getKillSwitchStatus } from '../../domain/ledger/operations/get-kill-switch-status.js';
import { listFiscalEntries } from '../../domain/ledger/operations/list-fiscal-entries.js';
import { listFiscalIntegrityChecks } from '../../domain/ledger/operations/list-fiscal-integrity-checks.js';
import { activateKillSwitch, deactivateKillSwitch } from '../../domain/ledger/operations/set-kill-switch.js';
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
