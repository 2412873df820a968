import {
  creditUserBalance,
  debitUserBalance,
  getAdminCompany,
  getAdminStats,
  getAdminUser,
  listAdminCompanies,
  listAdminUsers,
  toggleCompanyStatus,
  toggleUserStatus,
} from '../../domain/admin/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const BASE = '/api/v1/admin';
/** Spec "Admin [Bearer, permission admin access]": the dashboard's token or cookie session, never an API key. */
const admin = { tag: 'Admin', auth: ['bearer', 'cookie'] } as const;

/** Spec "Admin": platform figures, users and companies with their toggles, manual balance movements. */
export const adminRoutes: RouteSpec[] = [
  { ...admin, method: 'get', path: `${BASE}/stats`, operation: getAdminStats },
  { ...admin, method: 'get', path: `${BASE}/users`, operation: listAdminUsers, envelope: 'raw' },
  { ...admin, method: 'get', path: `${BASE}/users/{id}`, operation: getAdminUser },
  {
    ...admin,
    method: 'post',
    path: `${BASE}/users/{id}/toggle-status`,
    operation: toggleUserStatus,
    message: 'User status changed.',
    errors: [409],
  },
  {
    ...admin,
    method: 'post',
    path: `${BASE}/users/{userId}/credit`,
    operation: creditUserBalance,
    message: 'Balance credited.',
  },
  {
    ...admin,
    method: 'post',
    path: `${BASE}/users/{userId}/debit`,
    operation: debitUserBalance,
    message: 'Balance debited.',
  },
  { ...admin, method: 'get', path: `${BASE}/companies`, operation: listAdminCompanies, envelope: 'raw' },
  { ...admin, method: 'get', path: `${BASE}/companies/{id}`, operation: getAdminCompany },
  {
    ...admin,
    method: 'post',
    path: `${BASE}/companies/{id}/toggle-status`,
    operation: toggleCompanyStatus,
    message: 'Company status changed.',
  },
];
