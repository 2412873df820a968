import {
  checkQuoteIntegrity,
  exportQuoteAudit,
  getAdminQuote,
  getAdminQuoteStats,
  listAdminQuotes,
} from '../../domain/quotes/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const BASE = '/api/v1/admin/quotes';
/** Spec "Quotes", admin (cross-tenant) [Bearer or cookie, admin permission]: never an API key. */
const admin = { tag: 'Admin', auth: ['bearer', 'cookie'] } as const;

/** Spec "Quotes": the operator's view of every tenant's quotes. The fixed paths come before `{quote}`. */
export const adminQuoteRoutes: RouteSpec[] = [
  { ...admin, method: 'get', path: BASE, operation: listAdminQuotes, envelope: 'raw' },
  { ...admin, method: 'get', path: `${BASE}/stats`, operation: getAdminQuoteStats },
  { ...admin, method: 'get', path: `${BASE}/integrity-check`, operation: checkQuoteIntegrity },
  {
    ...admin,
    method: 'get',
    path: `${BASE}/audit-export`,
    operation: exportQuoteAudit,
    file: ['text/csv'],
    envelope: 'raw',
  },
  { ...admin, method: 'get', path: `${BASE}/{quote}`, operation: getAdminQuote },
];
