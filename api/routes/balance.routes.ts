import { getBalance, updateBalanceSettings } from '../../domain/billing/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

export const balanceRoutes: RouteSpec[] = [
  // API keys read it too: the MCP `get_balance` tool and scripts checking funds before sending.
  {
    method: 'get',
    path: '/api/v1/balance',
    operation: getBalance,
    tag: 'Balance',
    auth: ['bearer', 'cookie', 'api_key'],
  },
  {
    method: 'put',
    path: '/api/v1/balance/settings',
    operation: updateBalanceSettings,
    tag: 'Balance',
    auth: ['bearer', 'cookie'],
    message: 'Balance settings updated.',
  },
];
