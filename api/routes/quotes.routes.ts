import {
  acceptQuote,
  cancelQuote,
  convertQuoteToBalance,
  convertQuoteToDeposit,
  createQuote,
  downloadQuotePdf,
  duplicateQuote,
  getQuote,
  getQuoteAuditLog,
  listQuotes,
  refuseQuote,
  regenerateQuoteLink,
  revokeQuoteLink,
  sendQuote,
  updateQuote,
} from '../../domain/quotes/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const tenant = { tag: 'Quotes', auth: ['tenant_key'] } as const;
const LIST = '/api/v1/tenant/sub-tenants/{subTenantId}/quotes';
const BY_ID = `${LIST}/{id}`;
/** Conversions issue an ordinary invoice: paid from the balance in production, refused while the kill switch is on. */
const issuing = [402, 409, 503] as const;

/**
 * Quotes of a tenant's sub-tenants (origin-notes item 6; docs/api/quotes.md), and the
 * specification's two conversion routes (spec "Quotes": `/api/quotes/{id}/convert-to-…`).
 */
export const quoteRoutes: RouteSpec[] = [
  { ...tenant, method: 'post', path: LIST, operation: createQuote, status: 201, message: 'Quote created.' },
  { ...tenant, method: 'get', path: LIST, operation: listQuotes, envelope: 'raw' },
  { ...tenant, method: 'get', path: BY_ID, operation: getQuote },
  { ...tenant, method: 'put', path: BY_ID, operation: updateQuote, message: 'Quote updated.', errors: [409] },
  {
    ...tenant,
    method: 'post',
    path: `${BY_ID}/duplicate`,
    operation: duplicateQuote,
    status: 201,
    message: 'Quote duplicated.',
  },
  { ...tenant, method: 'post', path: `${BY_ID}/send`, operation: sendQuote, message: 'Quote sent.', errors: [409] },
  {
    ...tenant,
    method: 'post',
    path: `${BY_ID}/cancel`,
    operation: cancelQuote,
    message: 'Quote cancelled.',
    errors: [409],
  },
  {
    ...tenant,
    method: 'get',
    path: `${BY_ID}/pdf`,
    operation: downloadQuotePdf,
    file: ['application/pdf'],
    envelope: 'raw',
  },
  {
    ...tenant,
    method: 'post',
    path: `${BY_ID}/public-link/regenerate`,
    operation: regenerateQuoteLink,
    message: 'Public link regenerated: the previous one no longer works.',
    errors: [409],
  },
  {
    ...tenant,
    method: 'delete',
    path: `${BY_ID}/public-link`,
    operation: revokeQuoteLink,
    message: 'Public link revoked.',
  },
  { ...tenant, method: 'get', path: `${BY_ID}/audit-log`, operation: getQuoteAuditLog },
  {
    ...tenant,
    method: 'post',
    path: `${BY_ID}/convert-to-deposit`,
    operation: convertQuoteToDeposit,
    status: 201,
    message: 'Deposit invoice created.',
    errors: issuing,
  },
  {
    ...tenant,
    method: 'post',
    path: `${BY_ID}/convert-to-balance`,
    operation: convertQuoteToBalance,
    status: 201,
    message: 'Balance invoice created.',
    errors: issuing,
  },
  {
    ...tenant,
    method: 'post',
    path: '/api/quotes/{id}/convert-to-deposit',
    operation: convertQuoteToDeposit,
    status: 201,
    message: 'Deposit invoice created.',
    errors: issuing,
  },
  {
    ...tenant,
    method: 'post',
    path: '/api/quotes/{id}/convert-to-balance',
    operation: convertQuoteToBalance,
    status: 201,
    message: 'Balance invoice created.',
    errors: issuing,
  },
];

/** 403: a call from another site (api/pages/quote-page.router.ts). */
const page = { tag: 'Quote page', auth: ['none'], envelope: 'raw', errors: [403, 409] } as const;

/**
 * The JSON calls of the buyer's page (`/quote/{token}`): the token in the path is the buyer's
 * permission, and the page's guard refuses cross-site calls.
 */
export const quotePageRoutes: RouteSpec[] = [
  { ...page, method: 'post', path: '/quote/{token}/accept', operation: acceptQuote },
  { ...page, method: 'post', path: '/quote/{token}/refuse', operation: refuseQuote },
];
