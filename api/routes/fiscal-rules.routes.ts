import {
  createFiscalRule,
  exportFiscalRules,
  getFiscalRule,
  listFiscalRuleHistory,
  listFiscalRules,
  replayFiscalRules,
  updateFiscalRule,
} from '../../domain/ledger/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const RULES = '/api/v1/tenant/fiscal/rules';
const common = { tag: 'Fiscal', auth: ['tenant_key'] } as const;

/**
 * Versioned fiscal rules (spec "Fiscal [TenantKey + scope]"): `fiscal:read` to read, `fiscal:write`
 * to record a version or replay. `export` and `replay` come before `{rule}` so that it never takes
 * them (a rule key always has a dot, so neither word can be one). The path parameter has one name,
 * `rule`, for the key (GET) and the version id (PUT): OpenAPI forbids two names at one place.
 */
export const fiscalRuleRoutes: RouteSpec[] = [
  { ...common, method: 'get', path: RULES, operation: listFiscalRules },
  { ...common, method: 'get', path: `${RULES}/export`, operation: exportFiscalRules, file: ['application/json'] },
  { ...common, method: 'post', path: `${RULES}/replay`, operation: replayFiscalRules, envelope: 'raw' },
  {
    ...common,
    method: 'post',
    path: RULES,
    operation: createFiscalRule,
    status: 201,
    message: 'Fiscal rule created.',
  },
  { ...common, method: 'get', path: `${RULES}/{rule}`, operation: getFiscalRule },
  { ...common, method: 'get', path: `${RULES}/{rule}/history`, operation: listFiscalRuleHistory },
  {
    ...common,
    method: 'put',
    path: `${RULES}/{rule}`,
    operation: updateFiscalRule,
    message: 'New version of the fiscal rule recorded; earlier versions are unchanged.',
  },
];
