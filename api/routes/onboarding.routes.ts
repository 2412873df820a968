import {
  authorizeOnboarding,
  authorizeTenantOnboarding,
  createOnboardingSession,
  createTenantOnboardingSession,
  exchangeOnboardingCode,
  exchangeTenantOnboardingCode,
  finishOnboarding,
  finishTenantOnboarding,
  getOnboardingSession,
  getTenantOnboardingSession,
} from '../../domain/onboarding/operations/index.js';
import type { RouteSpec } from '../http/route-spec.js';

const PARTNER = 'Partner onboarding';
const TENANT = 'Tenant onboarding (sub-tenants)';

/**
 * Onboarding (spec "Partner onboarding" [PubKey], "Tenant onboarding (sub-tenants)"). The provider
 * redirects to GET /api/v1/onboarding/superpdp/callback, an HTML page (api/pages/onboarding-callback.router.ts).
 * The exchanges count against the strict per-address limit (5 per minute).
 */
export const onboardingRoutes: RouteSpec[] = [
  {
    method: 'post',
    path: '/api/v1/onboarding/sessions',
    operation: createOnboardingSession,
    tag: PARTNER,
    auth: ['publishable_key'],
    status: 201,
    message: 'Onboarding session created.',
  },
  {
    method: 'get',
    path: '/api/v1/onboarding/sessions/{id}',
    operation: getOnboardingSession,
    tag: PARTNER,
    auth: ['publishable_key'],
  },
  {
    method: 'post',
    path: '/api/v1/onboarding/superpdp/authorize',
    operation: authorizeOnboarding,
    tag: PARTNER,
    auth: ['publishable_key'],
    errors: [503],
  },
  {
    method: 'post',
    path: '/api/v1/onboarding/superpdp/callback',
    operation: finishOnboarding,
    tag: PARTNER,
    auth: ['publishable_key'],
    envelope: 'raw',
    errors: [503],
  },
  {
    method: 'post',
    path: '/api/v1/onboarding/exchange',
    operation: exchangeOnboardingCode,
    tag: PARTNER,
    auth: ['none'],
    rateLimit: 'exchange',
    errors: [401, 403, 410],
  },
  {
    method: 'post',
    path: '/api/v1/tenant/onboarding/sessions',
    operation: createTenantOnboardingSession,
    tag: TENANT,
    auth: ['tenant_key', 'publishable_key'],
    // The specification's "onboarding operations: 30/minute per tenant", with either key.
    rateLimit: 'onboarding',
    status: 201,
    message: 'Onboarding session created.',
  },
  {
    method: 'get',
    path: '/api/v1/tenant/onboarding/sessions/{id}',
    operation: getTenantOnboardingSession,
    tag: TENANT,
    auth: ['tenant_key', 'publishable_key'],
    rateLimit: 'onboarding',
  },
  {
    method: 'post',
    path: '/api/v1/tenant/onboarding/superpdp/authorize',
    operation: authorizeTenantOnboarding,
    tag: TENANT,
    auth: ['publishable_key'],
    envelope: 'raw',
    errors: [503],
  },
  {
    method: 'post',
    path: '/api/v1/tenant/onboarding/superpdp/callback',
    operation: finishTenantOnboarding,
    tag: TENANT,
    auth: ['publishable_key'],
    envelope: 'raw',
    errors: [503],
  },
  {
    method: 'post',
    path: '/api/v1/tenant/onboarding/exchange',
    operation: exchangeTenantOnboardingCode,
    tag: TENANT,
    auth: ['publishable_key'],
    rateLimit: 'exchange',
    errors: [410],
  },
];
