import type { Scope } from '../../domain/shared/operation.js';

/**
 * The authorization matrix: for every route, the status each actor gets with a fresh (unknown) id
 * in the path and an empty JSON body. 401: no usable credential for this route; 403: a valid
 * credential of the wrong kind or scope; 404/422: through authorization, then stopped by the
 * unknown id or the empty body; 200/201/204: served.
 */
export const ACTORS = [
  'anonymous',
  'user_token',
  'user_session',
  'admin_token',
  'user_key',
  'user_key_invoices',
  'user_key_signatures',
  'user_key_no_scope',
  'revoked_key',
  'expired_key',
  'tenant_sandbox',
  'tenant_production',
  'other_tenant',
  'tenant_fiscal_reader',
  'tenant_sub_tenant',
  'publishable_key',
] as const;
export type Actor = (typeof ACTORS)[number];
type Row = Record<Actor, number>;

const row = (base: number, set: Partial<Row> = {}): Row =>
  Object.fromEntries(ACTORS.map((actor) => [actor, set[actor] ?? base])) as Row;

const USER_KEYS = ['user_key', 'user_key_invoices', 'user_key_signatures', 'user_key_no_scope'] as const;
const TENANT_KEYS = ['tenant_sandbox', 'tenant_production', 'other_tenant'] as const;
/**
 * Two more sandbox keys of `tenant_sandbox`'s tenant: `tenant_fiscal_reader` holds `fiscal:read`
 * only; `tenant_sub_tenant` holds every scope but is bound to the seeded sub-tenant. Both are
 * served like the tenant's full key unless a row says otherwise.
 */
const NARROW_KEYS = ['tenant_fiscal_reader', 'tenant_sub_tenant'] as const;
type TenantScope = Exclude<Scope, 'signatures'>;
/** The fiscal reader is refused (403) wherever a scope other than `fiscal:read` is needed. */
const readerGets = (status: number, scope: TenantScope | null) =>
  scope === null || scope === 'fiscal:read' ? status : 403;
const each = (actors: readonly Actor[], status: number): Partial<Row> =>
  Object.fromEntries(actors.map((actor) => [actor, status]));

/** [None]: credentials are not read; everyone is served alike. */
const open = (status: number) => row(status);

/** [Bearer] with the dashboard's cookie session, for users. */
const dashboard = (status: number, set: Partial<Row> = {}) =>
  row(401, { user_token: status, user_session: status, admin_token: status, ...set });

/**
 * [Bearer] with the `admin access` permission (the dashboard's token or cookie session): a user
 * without it is refused (403); keys are not read (401), even an admin's.
 */
const adminRoute = (status: number) => row(401, { user_token: 403, user_session: 403, admin_token: status });

/** [Bearer] or a user's API key; tenant keys are read too and `tenant` says what they get. */
const dashboardOrKey = (status: number, tenant: number, set: Partial<Row> = {}) =>
  row(401, {
    user_token: status,
    user_session: status,
    admin_token: status,
    ...each(USER_KEYS, status),
    ...each(TENANT_KEYS, tenant),
    ...each(NARROW_KEYS, tenant),
    ...set,
  });

/**
 * [TenantKey]: tenant keys (and tenant login tokens), refused (403) without the route's `scope`. A
 * user's key or bearer token is a valid credential of the wrong kind (403); a cookie session or
 * publishable key is not taken here (401).
 */
const tenantRoute = (status: number, set: Partial<Row> = {}, scope: TenantScope | null = null) =>
  row(401, {
    ...each(TENANT_KEYS, status),
    tenant_fiscal_reader: readerGets(status, scope),
    tenant_sub_tenant: status,
    ...each(USER_KEYS, 403),
    user_token: 403,
    admin_token: 403,
    ...set,
  });
/** [PubKey]: a publishable key only; every other credential is not read here (401). */
const pubKeyRoute = (status: number) => row(401, { publishable_key: status });

/** A tenant route that acts on the whole tenant: a key bound to a sub-tenant is refused (403). */
const tenantWideRoute = (status: number, set: Partial<Row> = {}, scope: TenantScope | null = null) =>
  tenantRoute(status, { tenant_sub_tenant: 403, ...set }, scope);

/**
 * [ApiKey]: user and tenant secret keys, refused without the route's scope (403); dashboard tokens
 * are not keys (401).
 */
const apiKeyRoute = (status: number, scope: 'invoices' | 'signatures', set: Partial<Row> = {}) =>
  row(401, {
    ...each(USER_KEYS, status),
    ...each(TENANT_KEYS, status),
    ...each(NARROW_KEYS, status),
    tenant_fiscal_reader: 403,
    user_key_no_scope: 403,
    [scope === 'invoices' ? 'user_key_signatures' : 'user_key_invoices']: 403,
    ...set,
  });

/**
 * Invoice reading and changes: the dashboard ([Bearer], cookie session) and every secret key, user's
 * or tenant's; a key without the `invoices` scope is refused (403).
 */
const invoiceRoute = (status: number, set: Partial<Row> = {}) =>
  row(401, {
    user_token: status,
    user_session: status,
    admin_token: status,
    ...each(USER_KEYS, status),
    ...each(TENANT_KEYS, status),
    ...each(NARROW_KEYS, status),
    tenant_fiscal_reader: 403,
    user_key_signatures: 403,
    user_key_no_scope: 403,
    ...set,
  });

/** The `/v1/sandbox` invoice routes: secret keys of the sandbox with the `invoices` scope. */
const sandboxInvoiceRoute = (status: number, set: Partial<Row> = {}) =>
  apiKeyRoute(status, 'invoices', { tenant_production: 403, ...set });

/**
 * Signature reading: the dashboard ([Bearer], cookie session) and every secret key; a key without
 * the `signatures` scope is refused (403).
 */
const signatureReadRoute = (status: number, set: Partial<Row> = {}) =>
  invoiceRoute(status, { user_key_signatures: status, user_key_invoices: 403, ...set });

/** The `/v1/sandbox` signature routes: secret keys of the sandbox with the `signatures` scope. */
const sandboxSignatureRoute = (status: number, set: Partial<Row> = {}) =>
  apiKeyRoute(status, 'signatures', { tenant_production: 403, ...set });

export const EXPECTED: Record<string, Row> = {
  'GET /api/health': open(200),
  'GET /api/v1/health': open(200),
  'GET /api/v1/pricing': open(200),
  'GET /api/v1/openapi.json': open(200),
  // The tenant's money: not for a key bound to one of its sub-tenants.
  'GET /api/v1/balance': dashboardOrKey(200, 200, { tenant_sub_tenant: 403 }),
  'PUT /api/v1/balance/settings': dashboard(422),

  'POST /api/v1/auth/register': open(422),
  'POST /api/v1/auth/login': open(422),
  'POST /api/v1/auth/logout': dashboard(200),
  'GET /api/v1/auth/me': dashboard(200),
  'POST /api/v1/auth/forgot-password': open(422),
  'POST /api/v1/auth/reset-password': open(422),
  'POST /api/v1/auth/verify-email': open(422),
  'POST /api/v1/auth/verify-email/resend': dashboard(200),
  'GET /api/v1/auth/google': open(200),
  'GET /api/v1/auth/google/callback': open(401),
  'GET /sanctum/csrf-cookie': open(204),

  'GET /api/v1/companies': dashboard(200),
  'POST /api/v1/companies': dashboard(422),
  'GET /api/v1/companies/{id}': dashboard(404),
  'PUT /api/v1/companies/{id}': dashboard(404),
  'DELETE /api/v1/companies/{id}': dashboard(404),
  'POST /api/v1/companies/{id}/kyc': dashboard(404),
  'GET /api/v1/companies/{id}/kyc/status': dashboard(404),

  'GET /api/v1/api-keys': dashboard(200),
  'POST /api/v1/api-keys': dashboard(422),
  'GET /api/v1/api-keys/{id}': dashboard(404),
  'DELETE /api/v1/api-keys/{id}': dashboard(404),

  'POST /api/v1/tenant/auth/register': open(422),
  'POST /api/v1/tenant/auth/login': open(422),
  'POST /api/v1/tenant/auth/logout': tenantRoute(200),
  'GET /api/v1/tenant/auth/me': tenantRoute(200),
  'GET /api/v1/tenant/auth/keys': tenantRoute(200),
  // A sub-tenant's key makes keys bound to its sub-tenant.
  'POST /api/v1/tenant/auth/keys/secret': tenantRoute(201, {}, 'keys:write'),
  'POST /api/v1/tenant/auth/keys/publishable': tenantWideRoute(201, {}, 'keys:write'),

  // Partner onboarding [PubKey]: only a publishable key is read. The matrix's tenant is no partner,
  // but the empty body (422) or the unknown id (404) answers first.
  'POST /api/v1/onboarding/sessions': pubKeyRoute(422),
  'GET /api/v1/onboarding/sessions/{id}': pubKeyRoute(404),
  'POST /api/v1/onboarding/superpdp/authorize': pubKeyRoute(422),
  'POST /api/v1/onboarding/superpdp/callback': pubKeyRoute(422),
  // [None]: the partner's publishable key travels in the body.
  'POST /api/v1/onboarding/exchange': open(422),
  // Tenant onboarding: sessions with a tenant key or a publishable key, the rest [PubKey].
  'POST /api/v1/tenant/onboarding/sessions': tenantRoute(422, { publishable_key: 422 }),
  // The sessions are the whole tenant's, as their creation is: a key bound to a sub-tenant is refused.
  'GET /api/v1/tenant/onboarding/sessions/{id}': tenantWideRoute(404, { publishable_key: 404 }),
  'POST /api/v1/tenant/onboarding/superpdp/authorize': pubKeyRoute(422),
  'POST /api/v1/tenant/onboarding/superpdp/callback': pubKeyRoute(422),
  'POST /api/v1/tenant/onboarding/exchange': pubKeyRoute(422),

  'GET /api/v1/tenant/me': tenantWideRoute(200),
  // The empty body is refused (422) before the sub-tenant key's 403.
  'PUT /api/v1/tenant/me': tenantRoute(422, {}, 'profile:write'),
  'GET /api/v1/tenant/balance': tenantWideRoute(200),
  'GET /api/v1/tenant/stats': tenantWideRoute(200),
  // The empty body is refused (422) before the sub-tenant key's 403.
  'POST /api/v1/tenant/billing/top-up': tenantRoute(422),
  'POST /api/v1/tenant/billing/top-up/confirm': tenantRoute(422),
  'POST /api/v1/tenant/regenerate-key': tenantRoute(200, {}, 'keys:write'),
  // No webhook_url is set for the seeded tenants: nothing to regenerate.
  'POST /api/v1/tenant/regenerate-webhook-secret': tenantWideRoute(409, {}, 'webhooks:write'),
  // A sub-tenant's key reads the deliveries of its own sub-tenant's events.
  'GET /api/v1/tenant/webhook-logs': tenantRoute(200, {}, 'webhooks:read'),
  // The balance and its monthly invoices are the whole tenant's: a sub-tenant's key is refused.
  'GET /api/v1/tenant/billing/usage': tenantWideRoute(200),
  'GET /api/v1/tenant/billing/transactions': tenantWideRoute(200),
  'GET /api/v1/tenant/billing/invoices': tenantWideRoute(200),
  'GET /api/v1/tenant/billing/invoices/{id}': tenantWideRoute(404),
  'GET /api/v1/tenant/billing/invoices/{id}/download': tenantWideRoute(404),

  // KYB is the tenant's as a whole: a key bound to a sub-tenant is refused; both environments' keys are served.
  'GET /api/v1/tenant/kyb/status': tenantWideRoute(200),
  'GET /api/v1/tenant/kyb/documents': tenantWideRoute(200),
  // The empty body is refused (422) before the sub-tenant key's 403.
  'POST /api/v1/tenant/kyb/documents': tenantRoute(422, {}, 'profile:write'),
  'GET /api/v1/tenant/kyb/documents/{document}': tenantWideRoute(404),
  'GET /api/v1/tenant/kyb/documents/{document}/download': tenantWideRoute(404),
  'DELETE /api/v1/tenant/kyb/documents/{document}': tenantWideRoute(404, {}, 'profile:write'),

  'GET /api/v1/tenant/sub-tenants': tenantRoute(200),
  'POST /api/v1/tenant/sub-tenants': tenantRoute(422, {}, 'sub_tenants:write'),
  'GET /api/v1/tenant/sub-tenants/{id}': tenantRoute(404),
  'PUT /api/v1/tenant/sub-tenants/{id}': tenantRoute(404, {}, 'sub_tenants:write'),
  'DELETE /api/v1/tenant/sub-tenants/{id}': tenantWideRoute(404, {}, 'sub_tenants:write'),
  'GET /api/v1/tenant/sub-tenants/by-external-id/{externalId}': tenantRoute(404),
  'GET /api/v1/tenant/sub-tenants/{subTenantId}/stats/overview': tenantRoute(404),
  'POST /api/v1/invoices': apiKeyRoute(422, 'invoices'),
  'POST /api/v1/invoices/convert': apiKeyRoute(422, 'invoices'),
  'POST /api/v1/sandbox/invoices': apiKeyRoute(422, 'invoices', { tenant_production: 403 }),
  'POST /api/v1/tenant/invoices': tenantRoute(422, {}, 'invoices'),
  'GET /api/v1/tenant/fiscal/integrity': tenantRoute(200),
  'GET /api/v1/tenant/fiscal/entries': tenantRoute(200),
  'GET /api/v1/tenant/fiscal/integrity/history': tenantRoute(200),
  'GET /api/v1/tenant/fiscal/integrity/{date}': tenantRoute(422),
  'GET /api/v1/tenant/fiscal/kill-switch/status': tenantRoute(200),
  'POST /api/v1/tenant/fiscal/kill-switch/activate': tenantRoute(422, {}, 'fiscal:admin'),
  'POST /api/v1/tenant/fiscal/kill-switch/deactivate': tenantWideRoute(409, {}, 'fiscal:admin'),
  // No `year`: 422 once through authorization.
  'GET /api/v1/tenant/fiscal/fec': tenantRoute(422),
  'GET /api/v1/tenant/fiscal/rules': tenantRoute(200),
  'GET /api/v1/tenant/fiscal/rules/export': tenantRoute(200),
  'POST /api/v1/tenant/fiscal/rules': tenantRoute(422, {}, 'fiscal:write'),
  'POST /api/v1/tenant/fiscal/rules/replay': tenantRoute(200, {}, 'fiscal:write'),
  // A made-up key (a UUID has no dot) names no rule; PUT checks its body first.
  'GET /api/v1/tenant/fiscal/rules/{rule}': tenantRoute(404),
  'GET /api/v1/tenant/fiscal/rules/{rule}/history': tenantRoute(404),
  'PUT /api/v1/tenant/fiscal/rules/{rule}': tenantRoute(422, {}, 'fiscal:write'),
  'GET /api/v1/tenant/fiscal/closings': tenantRoute(200),
  // The seeded chains began today (or not at all): yesterday has nothing to close.
  'POST /api/v1/tenant/fiscal/closings/daily': tenantRoute(409, {}, 'fiscal:write'),
  'GET /api/v1/tenant/fiscal/anchors': tenantRoute(200),
  'GET /api/v1/tenant/fiscal/anchors/{id}/token': tenantRoute(404),
  'GET /api/v1/tenant/fiscal/anchors/{id}/ca-certificate': tenantRoute(404),
  'GET /api/v1/tenant/fiscal/compliance': tenantRoute(200),
  'GET /api/v1/tenant/fiscal/forensic-export': tenantRoute(200),
  // `{year}` is filled with 2026: the current year or a past one, so it can be attested.
  'GET /api/v1/tenant/fiscal/attestation/{year}': tenantRoute(200),
  'GET /api/v1/tenant/fiscal/attestation/{year}/download': tenantRoute(200),
  'GET /api/v1/tenant/fiscal/isca/self-attestation/download': tenantRoute(200),
  'GET /api/v1/tenant/fiscal/isca/technical-dossier/download': tenantRoute(200),
  'GET /api/v1/tenant/fiscal/isca/measures-register/download': tenantRoute(200),
  'POST /api/v1/tenant/sub-tenants/{subTenantId}/invoices': tenantRoute(422, {}, 'invoices'),
  'POST /api/v1/tenant/invoices/bulk': tenantRoute(422, {}, 'invoices'),

  'POST /api/v1/invoices/{id}/submit': apiKeyRoute(404, 'invoices'),
  'POST /api/v1/invoices/{id}/mark-paid': apiKeyRoute(404, 'invoices'),
  'POST /api/v1/tenant/invoices/bulk-submit': tenantRoute(422, {}, 'invoices'),
  'POST /api/v1/tenant/invoices/bulk-status': tenantRoute(422, {}, 'invoices'),
  'POST /api/v1/sandbox/invoices/{id}/submit': sandboxInvoiceRoute(404),
  'POST /api/v1/sandbox/invoices/{id}/simulate': sandboxInvoiceRoute(422),
  'POST /webhooks/superpdp': open(401),
  'POST /webhooks/superpdp/invoice': open(401),
  'POST /webhooks/superpdp/document': open(401),
  'POST /api/webhooks/superpdp': open(401),
  'POST /api/webhooks/superpdp/invoice': open(401),
  'POST /api/webhooks/superpdp/document': open(401),
  // Openapi signs nothing: without the URL's token (the matrix sends none) every caller gets 401.
  'POST /webhooks/openapi/signature': open(401),
  'POST /api/webhooks/openapi/signature': open(401),
  // No Stripe-Signature: 400, Stripe's convention.
  'POST /webhooks/stripe': open(400),
  'POST /api/webhooks/stripe': open(400),
  'GET /api/v1/invoices': invoiceRoute(200),
  'GET /api/v1/invoices/{id}': invoiceRoute(404),
  'PATCH /api/v1/invoices/{id}': invoiceRoute(404),
  'DELETE /api/v1/invoices/{id}': invoiceRoute(404),
  // A random `type` is not one of the download types: 422 once through authorization.
  'GET /api/v1/invoices/{id}/download/{type}': invoiceRoute(422),
  'GET /api/v1/invoices/{id}/audit-trail': invoiceRoute(404),
  'GET /api/v1/tenant/sub-tenants/{subTenantId}/invoices': tenantRoute(404, {}, 'invoices'),
  'GET /api/v1/sandbox/invoices': sandboxInvoiceRoute(200),
  'GET /api/v1/sandbox/invoices/{id}': sandboxInvoiceRoute(404),
  'GET /api/v1/sandbox/invoices/{id}/audit-trail': sandboxInvoiceRoute(404),
  'GET /api/v1/sandbox/invoices/{id}/download/{type}': sandboxInvoiceRoute(422),
  // The token is the permission: credentials are not read, a made-up token is refused.
  'GET /api/v1/files/{token}': open(403),

  'POST /api/v1/signatures': apiKeyRoute(422, 'signatures'),
  'GET /api/v1/signatures': signatureReadRoute(200),
  'GET /api/v1/signatures/{id}': signatureReadRoute(404),
  // A random `type` is not one of the download types: 422 once through authorization.
  'GET /api/v1/signatures/{id}/download/{type}': apiKeyRoute(422, 'signatures'),
  'POST /api/v1/signatures/{id}/remind': apiKeyRoute(404, 'signatures'),
  'POST /api/v1/signatures/{id}/cancel': apiKeyRoute(404, 'signatures'),
  'POST /api/v1/sandbox/signatures': sandboxSignatureRoute(422),
  'GET /api/v1/sandbox/signatures': sandboxSignatureRoute(200),
  'GET /api/v1/sandbox/signatures/{id}': sandboxSignatureRoute(404),
  'GET /api/v1/sandbox/signatures/{id}/download/{type}': sandboxSignatureRoute(422),
  'POST /api/v1/sandbox/signatures/{id}/remind': sandboxSignatureRoute(404),
  'POST /api/v1/sandbox/signatures/{id}/cancel': sandboxSignatureRoute(404),
  'GET /api/v1/files/signatures/{token}': open(403),
  // The signing page's calls: the token is the permission; an unknown one is 404 whoever calls.
  'GET /sign/{token}/document': open(404),
  'POST /sign/{token}/otp': open(404),
  'POST /sign/{token}/otp/verify': open(422),
  'POST /sign/{token}/sign': open(404),
  'POST /sign/{token}/refuse': open(422),

  'POST /api/v1/tenant/sub-tenants/{id}/invoices/incoming': tenantRoute(422, {}, 'invoices'),
  'GET /api/v1/tenant/sub-tenants/{id}/invoices/incoming': tenantRoute(404, {}, 'invoices'),
  'GET /api/v1/tenant/invoices/incoming/{id}': tenantRoute(404, {}, 'invoices'),
  'POST /api/v1/tenant/invoices/incoming/{id}/accept': tenantRoute(404, {}, 'invoices'),
  'POST /api/v1/tenant/invoices/incoming/{id}/reject': tenantRoute(422, {}, 'invoices'),
  'POST /api/v1/tenant/invoices/incoming/{id}/dispute': tenantRoute(422, {}, 'invoices'),
  'POST /api/v1/tenant/invoices/incoming/{id}/mark-paid': tenantRoute(404, {}, 'invoices'),
  'GET /api/v1/invoices/incoming': invoiceRoute(200),
  'GET /api/v1/invoices/incoming/{id}': invoiceRoute(404),
  'POST /api/v1/invoices/incoming/{id}/accept': invoiceRoute(404),
  'POST /api/v1/invoices/incoming/{id}/reject': invoiceRoute(422),
  'POST /api/v1/invoices/incoming/{id}/mark-paid': invoiceRoute(404),
  'GET /api/v1/credit-notes': invoiceRoute(200),
  'POST /api/v1/credit-notes': invoiceRoute(422),
  'GET /api/v1/credit-notes/{id}': invoiceRoute(404),
  'DELETE /api/v1/credit-notes/{id}': invoiceRoute(404),
  'POST /api/v1/credit-notes/{id}/send': invoiceRoute(404),
  'GET /api/v1/credit-notes/{id}/download': invoiceRoute(404),
  'GET /api/v1/invoices/{invoice}/remaining-creditable': invoiceRoute(404),
  'POST /api/v1/tenant/sub-tenants/{subTenantId}/credit-notes': tenantRoute(422, {}, 'invoices'),
  'GET /api/v1/tenant/sub-tenants/{subTenantId}/credit-notes': tenantRoute(404, {}, 'invoices'),
  'GET /api/v1/files/credit-notes/{token}': open(403),
  'GET /api/v1/files/fiscal/{token}': open(403),

  'GET /api/v1/webhooks': dashboard(200),
  'POST /api/v1/webhooks': dashboard(422),
  'GET /api/v1/webhooks/{id}': dashboard(404),
  'PUT /api/v1/webhooks/{id}': dashboard(404),
  'DELETE /api/v1/webhooks/{id}': dashboard(404),
  'POST /api/v1/webhooks/{id}/test': dashboard(404),
  'GET /api/v1/webhooks/{id}/logs': dashboard(404),
  'POST /api/v1/webhooks/{id}/regenerate-secret': dashboard(404),

  // No signature provider account is configured here: the routes that call Openapi answer 409.
  'POST /api/v1/tenant/sub-tenants/{subTenantId}/quotes': tenantRoute(422, {}, 'invoices'),
  'GET /api/v1/tenant/sub-tenants/{subTenantId}/quotes': tenantRoute(404, {}, 'invoices'),
  'GET /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}': tenantRoute(404, {}, 'invoices'),
  'PUT /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}': tenantRoute(422, {}, 'invoices'),
  'POST /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}/duplicate': tenantRoute(404, {}, 'invoices'),
  'POST /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}/send': tenantRoute(404, {}, 'invoices'),
  'POST /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}/cancel': tenantRoute(422, {}, 'invoices'),
  'GET /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}/pdf': tenantRoute(404, {}, 'invoices'),
  'POST /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}/public-link/regenerate': tenantRoute(404, {}, 'invoices'),
  'DELETE /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}/public-link': tenantRoute(404, {}, 'invoices'),
  'GET /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}/audit-log': tenantRoute(404, {}, 'invoices'),
  'POST /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}/convert-to-deposit': tenantRoute(404, {}, 'invoices'),
  'POST /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}/convert-to-balance': tenantRoute(404, {}, 'invoices'),
  'POST /api/quotes/{id}/convert-to-deposit': tenantRoute(404, {}, 'invoices'),
  'POST /api/quotes/{id}/convert-to-balance': tenantRoute(404, {}, 'invoices'),
  'POST /quote/{token}/accept': open(422),
  'POST /quote/{token}/refuse': open(404),
  'GET /api/v1/admin/quotes': adminRoute(200),
  'GET /api/v1/admin/quotes/stats': adminRoute(200),
  'GET /api/v1/admin/quotes/integrity-check': adminRoute(200),
  'GET /api/v1/admin/quotes/audit-export': adminRoute(200),
  'GET /api/v1/admin/quotes/{quote}': adminRoute(404),
  'GET /api/v1/admin/openapi/config': adminRoute(200),
  'POST /api/v1/admin/openapi/config': adminRoute(422),
  'POST /api/v1/admin/openapi/config/verify': adminRoute(409),
  'GET /api/v1/admin/openapi/credit': adminRoute(409),
  'GET /api/v1/admin/openapi/tokens': adminRoute(409),
  'POST /api/v1/admin/openapi/tokens': adminRoute(422),
  // A UUID is not a token id (`tok_` + 24 hex): 404 without asking Openapi.
  'DELETE /api/v1/admin/openapi/tokens/{id}': adminRoute(404),
  'POST /api/v1/admin/openapi/tokens/{id}/refresh': adminRoute(404),

  'GET /api/v1/admin/kyb/pending': adminRoute(200),
  'POST /api/v1/admin/kyb/documents/{document}/review': adminRoute(422),
  'GET /api/v1/admin/kyb/documents/{document}/download': adminRoute(404),
  'GET /api/v1/admin/stats': adminRoute(200),
  'GET /api/v1/admin/users': adminRoute(200),
  'GET /api/v1/admin/users/{id}': adminRoute(404),
  'POST /api/v1/admin/users/{id}/toggle-status': adminRoute(404),
  // The empty body lacks `amount` and `reason`: 422 before the unknown user is looked up.
  'POST /api/v1/admin/users/{userId}/credit': adminRoute(422),
  'POST /api/v1/admin/users/{userId}/debit': adminRoute(422),
  'GET /api/v1/admin/companies': adminRoute(200),
  'GET /api/v1/admin/companies/{id}': adminRoute(404),
  'POST /api/v1/admin/companies/{id}/toggle-status': adminRoute(404),
  'GET /api/admin/sub-tenants': adminRoute(200),
  'GET /api/admin/sub-tenants/status-options': adminRoute(200),
  'GET /api/admin/sub-tenants/{id}': adminRoute(404),
  'DELETE /api/admin/sub-tenants/{id}': adminRoute(404),
};

/**
 * Routes that end the credential they are called with (logout, key regeneration): each gets its
 * own fresh set of actors so that the other rows keep working credentials.
 */
export const CONSUMES_CREDENTIALS = new Set(['POST /api/v1/tenant/regenerate-key', 'POST /api/v1/auth/logout']);

/**
 * Resources the matrix seeds: a sandbox sub-tenant of `tenant_sandbox`'s tenant, a company and a key
 * of the user, a sandbox invoice of `tenant_sandbox` with its files generated, a draft credit note of
 * that invoice, a webhook endpoint of the user, and a KYB document of `tenant_sandbox`'s tenant.
 */
export type Fixture = 'sub_tenant' | 'company' | 'user_key' | 'invoice' | 'webhook' | 'credit_note' | 'kyb_document';

/** The owner's other keys: the fiscal reader and the key bound to the seeded sub-tenant itself. */
const SAME_TENANT = { tenant_sandbox: 200, tenant_fiscal_reader: 200, tenant_sub_tenant: 200 };
const ownedSubTenant = { fixture: 'sub_tenant', expected: tenantRoute(404, SAME_TENANT) } as const;
const ownedSubTenantInvoices = {
  fixture: 'sub_tenant',
  expected: tenantRoute(404, { tenant_sandbox: 200, tenant_sub_tenant: 200 }, 'invoices'),
} as const;
const ownedInvoice = { fixture: 'invoice', expected: invoiceRoute(404, { tenant_sandbox: 200 }) } as const;
const ownedSandboxInvoice = {
  fixture: 'invoice',
  expected: sandboxInvoiceRoute(404, { tenant_sandbox: 200 }),
} as const;

/**
 * A KYB document is the whole tenant's, in both environments: its keys are served, but not the one
 * bound to a sub-tenant (403), another tenant (404) or anyone else.
 */
const ownedKybDocument = {
  fixture: 'kyb_document',
  expected: tenantWideRoute(404, { tenant_sandbox: 200, tenant_production: 200, tenant_fiscal_reader: 200 }),
} as const;

/**
 * The same routes with an id that one actor's owner holds: the owner is served, and every other
 * valid credential (another tenant, the other environment, another user, an admin) sees 404.
 */
export const OWNED: Record<string, { fixture: Fixture; expected: Row }> = {
  'GET /api/v1/tenant/sub-tenants/{id}': ownedSubTenant,
  'GET /api/v1/tenant/sub-tenants/by-external-id/{externalId}': ownedSubTenant,
  'GET /api/v1/tenant/sub-tenants/{subTenantId}/stats/overview': ownedSubTenant,
  'GET /api/v1/companies/{id}': { fixture: 'company', expected: dashboard(200, { admin_token: 404 }) },
  'GET /api/v1/companies/{id}/kyc/status': { fixture: 'company', expected: dashboard(200, { admin_token: 404 }) },
  'GET /api/v1/api-keys/{id}': { fixture: 'user_key', expected: dashboard(200, { admin_token: 404 }) },
  'GET /api/v1/webhooks/{id}': { fixture: 'webhook', expected: dashboard(200, { admin_token: 404 }) },
  'GET /api/v1/webhooks/{id}/logs': { fixture: 'webhook', expected: dashboard(200, { admin_token: 404 }) },
  'GET /api/v1/invoices/{id}': ownedInvoice,
  'PATCH /api/v1/invoices/{id}': ownedInvoice,
  'GET /api/v1/invoices/{id}/download/{type}': ownedInvoice,
  'GET /api/v1/invoices/{id}/audit-trail': ownedInvoice,
  'GET /api/v1/sandbox/invoices/{id}': ownedSandboxInvoice,
  'GET /api/v1/sandbox/invoices/{id}/audit-trail': ownedSandboxInvoice,
  'GET /api/v1/sandbox/invoices/{id}/download/{type}': ownedSandboxInvoice,
  'GET /api/v1/invoices/{invoice}/remaining-creditable': ownedInvoice,
  'GET /api/v1/credit-notes/{id}': { fixture: 'credit_note', expected: invoiceRoute(404, { tenant_sandbox: 200 }) },
  'GET /api/v1/tenant/sub-tenants/{subTenantId}/credit-notes': ownedSubTenantInvoices,
  'GET /api/v1/tenant/sub-tenants/{subTenantId}/invoices': ownedSubTenantInvoices,
  'GET /api/v1/tenant/sub-tenants/{id}/invoices/incoming': ownedSubTenantInvoices,
  'GET /api/v1/tenant/kyb/documents/{document}': ownedKybDocument,
  'GET /api/v1/tenant/kyb/documents/{document}/download': ownedKybDocument,
  // An admin reads any tenant's document; nobody else does, not even its owner through this route.
  'GET /api/v1/admin/kyb/documents/{document}/download': { fixture: 'kyb_document', expected: adminRoute(200) },
  // The administration sees every tenant's rows: the admin is served, everyone else refused as usual.
  'GET /api/admin/sub-tenants/{id}': { fixture: 'sub_tenant', expected: adminRoute(200) },
  'GET /api/v1/admin/companies/{id}': { fixture: 'company', expected: adminRoute(200) },
};
