import { randomUUID } from 'node:crypto';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { A_SIDE, type Actor, type WorldA } from './isolation/world.js';

/**
 * The isolation matrix's table: which routes are checked with which of A's ids, the bodies that
 * carry A's ids, the routes left out and why, and the cells where seeing A's data is the design.
 */

/** Routes whose path parameter is a bearer token, not a resource id: the token is the permission. */
export const EXEMPT: Record<string, string> = {
  'GET /api/v1/files/{token}': 'a signed download token: it is the permission, whoever presents it',
  'GET /api/v1/files/signatures/{token}': 'a signed download token: it is the permission, whoever presents it',
  'GET /api/v1/files/credit-notes/{token}': 'a signed download token: it is the permission, whoever presents it',
  'GET /api/v1/files/fiscal/{token}': 'a signed download token: it is the permission, whoever presents it',
  'GET /sign/{token}/document':
    "the signer's page token: credentials are not read (test/security/signing-page.test.ts)",
  'POST /sign/{token}/otp': "the signer's page token: credentials are not read (test/security/signing-page.test.ts)",
  'POST /sign/{token}/otp/verify': "the signer's page token: credentials are not read",
  'POST /sign/{token}/sign': "the signer's page token: credentials are not read",
  'POST /sign/{token}/refuse': "the signer's page token: credentials are not read",
  'POST /quote/{token}/accept': "the buyer's quote page token: credentials are not read",
  'POST /quote/{token}/refuse': "the buyer's quote page token: credentials are not read",
  'DELETE /api/v1/admin/openapi/tokens/{id}': "a token of the platform's own signature provider account, no tenant's",
  'POST /api/v1/admin/openapi/tokens/{id}/refresh':
    "a token of the platform's own signature provider account, no tenant's",
};

/**
 * Routes whose id names a resource world A does not hold (it would take a month's billing run or
 * a fiscal anchoring job to make one): they are still run, with a fresh id, so that their 2xx
 * answers are read for A's values.
 */
export const NOT_SEEDED: Record<string, string> = {
  '/api/v1/tenant/billing/invoices/{id}': "a monthly billing invoice: made by the month's billing job",
  '/api/v1/tenant/fiscal/anchors/{id}': 'a time-stamp anchor: made by the anchoring job after a daily closing',
};

/** Parameters that are no resource id: filled with a plain value, the route's answer read for A's values. */
const PLAIN: Record<string, string> = { type: 'pdf', year: '2026', date: new Date().toISOString().slice(0, 10) };

/**
 * The ways A's ids fill a route's path: one binding per variant (an invoice route is run with A's
 * tenant invoice and with A's user's invoice). The first matching rule wins.
 */
export function bindings(path: string, a: WorldA): Record<string, string>[] {
  const { ids } = a;
  const rules: [RegExp, Record<string, string>[]][] = [
    [/^\/api\/v1\/tenant\/sub-tenants\/\{subTenantId\}\/quotes/, [{ subTenantId: ids.subTenant, id: ids.quote }]],
    [
      /^\/api\/v1\/tenant\/sub-tenants\//,
      [{ id: ids.subTenant, subTenantId: ids.subTenant, externalId: ids.subTenantExternal }],
    ],
    [/^\/api\/v1\/companies\//, [{ id: ids.company }]],
    [/^\/api\/v1\/admin\/companies\//, [{ id: ids.company }]],
    [/^\/api\/v1\/api-keys\//, [{ id: ids.userKey }]],
    [/^\/api\/v1\/webhooks\//, [{ id: ids.webhook }]],
    [/^\/api\/v1\/tenant\/onboarding\/sessions\//, [{ id: ids.tenantOnboardingSession }]],
    [/^\/api\/v1\/onboarding\/sessions\//, [{ id: ids.onboardingSession }]],
    [/\/kyb\/documents\//, [{ document: ids.kybDocument }]],
    [/invoices\/incoming\/\{id\}/, [{ id: ids.incoming }]],
    [
      /^\/api\/v1\/(sandbox\/)?invoices\/\{(id|invoice)\}/,
      [ids.tenantInvoice, ids.userInvoice].map((id) => ({ id, invoice: id })),
    ],
    [/^\/api\/v1\/credit-notes\//, [{ id: ids.creditNote }]],
    [/^\/api\/v1\/(sandbox\/)?signatures\//, [{ id: ids.signature }]],
    [/^\/api\/quotes\//, [{ id: ids.quote }]],
    [/^\/api\/v1\/admin\/quotes\//, [{ quote: ids.quote }]],
    [/^\/api\/v1\/admin\/users\//, [{ id: a.userId, userId: a.userId }]],
    [/^\/api\/admin\/sub-tenants\//, [{ id: ids.subTenant }]],
  ];
  return rules.find(([pattern]) => pattern.test(path))?.[1] ?? [{}];
}

/** The path with its parameters filled; `foreign` is true when one of them is A's resource id. */
export function fill(path: string, binding: Record<string, string>): { path: string; foreign: boolean } {
  let foreign = false;
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (binding[name]) {
      foreign = true;
      return binding[name];
    }
    if (name === 'type' && path.includes('/signatures/')) return 'original';
    return PLAIN[name] ?? randomUUID();
  });
  return { path: filled, foreign };
}

/**
 * Bodies that carry A's ids or a valid payload aimed at A's sub-tenant: a creation into A's
 * sub-tenant, a credit note of A's invoice, the bulk routes over A's invoices, the onboarding
 * steps of A's session. Other writes get `{}`.
 */
export function bodyFor(route: string, a: WorldA): Record<string, unknown> | null {
  const { ids } = a;
  switch (route) {
    case 'POST /api/v1/tenant/sub-tenants/{subTenantId}/invoices':
      return invoiceBody();
    case 'POST /api/v1/credit-notes':
    case 'POST /api/v1/tenant/sub-tenants/{subTenantId}/credit-notes':
      return a.bodies.creditNote;
    case 'POST /api/v1/tenant/sub-tenants/{subTenantId}/quotes':
    case 'PUT /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}':
      return a.bodies.quote;
    case 'POST /api/v1/tenant/sub-tenants/{subTenantId}/quotes/{id}/cancel':
      return { reason: 'Taken over' };
    case 'POST /api/v1/sandbox/invoices/{id}/simulate':
      return { status_code: 'fr:212' };
    case 'POST /api/v1/tenant/sub-tenants/{id}/invoices/incoming':
      return a.bodies.incoming;
    case 'POST /api/v1/tenant/invoices/bulk-status':
    case 'POST /api/v1/tenant/invoices/bulk-submit':
      return { invoice_ids: [ids.tenantInvoice] };
    case 'POST /api/v1/onboarding/superpdp/authorize':
      return { session_id: ids.onboardingSession };
    case 'POST /api/v1/tenant/onboarding/superpdp/authorize':
      return { session_id: ids.tenantOnboardingSession };
    case 'PUT /api/v1/tenant/sub-tenants/{id}':
    case 'PUT /api/v1/companies/{id}':
      return { name: 'Taken over' };
    case 'POST /api/v1/tenant/invoices/incoming/{id}/reject':
    case 'POST /api/v1/tenant/invoices/incoming/{id}/dispute':
    case 'POST /api/v1/invoices/incoming/{id}/reject':
      return { reason: 'Taken over' };
    default:
      return null;
  }
}

/** Routes without a path id that take A's ids in their body. */
export const BODY_ID_ROUTES = new Set([
  'POST /api/v1/credit-notes',
  'POST /api/v1/tenant/invoices/bulk-status',
  'POST /api/v1/tenant/invoices/bulk-submit',
  'POST /api/v1/onboarding/superpdp/authorize',
  'POST /api/v1/tenant/onboarding/superpdp/authorize',
]);

/**
 * List filters that name A's ids, for the list routes whose input has them; the plain list is run
 * too.
 */
export const LIST_FILTERS = (a: WorldA): Record<string, string> => ({
  company_id: a.ids.company,
  sub_tenant_id: a.ids.subTenant,
  invoice_id: a.ids.tenantInvoice,
  // Not an id: the FEC export needs its year to answer at all.
  year: '2026',
});

/**
 * The bulk routes answer one entry per id asked: an id of another account is an entry with an
 * error (NOT_FOUND). A leak there is an entry for A's id without one.
 */
export const BULK_ROUTES = new Set([
  'POST /api/v1/tenant/invoices/bulk-status',
  'POST /api/v1/tenant/invoices/bulk-submit',
]);

export function bulkLeak(text: string, a: WorldA): string | null {
  // biome-ignore lint/suspicious/noExplicitAny: the entries are read loosely
  const entries: any[] = JSON.parse(text).data ?? [];
  const served = entries.filter((entry) => a.markers.includes(entry.id) && !entry.error);
  return served.length ? `entries served for ${served.map((entry) => entry.id).join(', ')}` : null;
}

const isAdminRoute = (path: string) => path.startsWith('/api/v1/admin/') || path.startsWith('/api/admin/');

/**
 * Cells where reading A's data is the design, with the reason: an administrator on the admin
 * routes; A's production key on A's KYB documents (KYB is the tenant's as a whole, in both
 * environments).
 */
export function allowed(route: string, actor: Actor): string | null {
  const path = route.split(' ')[1];
  if (actor === 'admin_token' && isAdminRoute(path)) return 'administrators read every tenant on the admin routes';
  if (actor === 'a_tenant_production' && path.startsWith('/api/v1/tenant/kyb/')) {
    return "KYB is the whole tenant's, in both environments";
  }
  return null;
}

/**
 * The values that must not appear in an actor's 2xx answer: A's resources, and A's tenant and user
 * for actors outside them. A's user's production key is bound to A's company: it may name it (the
 * key's own `company_id`), not read what that company holds in the sandbox.
 */
export const markersFor = (actor: Actor, a: WorldA): string[] => {
  if (actor === 'a_user_key_production') return a.markers.filter((marker) => marker !== a.ids.company);
  return A_SIDE.has(actor) ? a.markers : [...a.markers, ...a.ownerMarkers];
};

/** MCP tools that create or act on the caller's own account, with no id of A to aim at: left out. */
export const MCP_LEFT_OUT: Record<string, string> = {
  create_invoice: "creates in the caller's own account",
  create_signature: "creates in the caller's own account",
  create_sub_tenant: "creates in the caller's own account",
  update_tenant_profile: "the caller's own profile",
  activate_kill_switch: "the caller's own ledger",
  deactivate_kill_switch: "the caller's own ledger",
  perform_daily_closing: "the caller's own ledger",
  health_check: 'no tenant data',
  validate_siret: 'no tenant data (a public registry look-up)',
  validate_vat: 'no tenant data (a public registry look-up)',
};

/** A's ids for an MCP tool's id arguments; one argument set per variant. */
export function mcpVariants(tool: string, args: Record<string, unknown>, a: WorldA): Record<string, unknown>[] {
  const { ids } = a;
  const variants: Record<string, unknown>[] = [];
  if ('invoice_id' in args) {
    const invoiceIds = tool.includes('incoming') ? [ids.incoming] : [ids.tenantInvoice, ids.userInvoice];
    for (const id of invoiceIds) variants.push({ ...args, invoice_id: id });
  } else if ('signature_id' in args) variants.push({ ...args, signature_id: ids.signature });
  else if ('credit_note_id' in args) variants.push({ ...args, credit_note_id: ids.creditNote });
  else if ('sub_tenant_id' in args) variants.push({ ...args, sub_tenant_id: ids.subTenant });
  else if ('external_id' in args) variants.push({ ...args, external_id: ids.subTenantExternal });
  else if ('entity_id' in args) {
    for (const id of [ids.tenantInvoice, ids.userInvoice])
      variants.push({ ...args, entity_type: 'invoice', entity_id: id });
  } else if (tool === 'create_credit_note') {
    variants.push({ ...args, invoice_id: ids.tenantInvoice });
  } else if (tool === 'export_fec') {
    variants.push({ ...args, sub_tenant_id: ids.subTenant });
  }
  return variants.length ? variants : [args];
}
