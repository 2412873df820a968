import type { FromSchema } from 'json-schema-to-ts';

/** Partner and tenant onboarding (spec "Partner onboarding", "Tenant onboarding (sub-tenants)"). */

const ENVIRONMENT = {
  type: 'string',
  enum: ['sandbox', 'production'],
  description: '`sandbox` or `production`.',
} as const;
const SESSION_ID = { type: 'string', format: 'uuid', description: 'The onboarding session.' } as const;
const PROVIDER_CODE = {
  type: 'string',
  minLength: 1,
  maxLength: 2048,
  description: 'The code the provider redirected back with (posted to the opener by the callback page).',
} as const;
const OAUTH_STATE = {
  type: 'string',
  minLength: 1,
  maxLength: 512,
  description: 'The `state` the authorize call returned (single use).',
} as const;
const AUTHORIZATION_CODE = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description: 'The single-use authorization code the callback returned (valid 5 minutes).',
} as const;
const ONBOARDING_STATUSES = [
  'pending_superpdp',
  'superpdp_redirected',
  'superpdp_authorized',
  'superpdp_pending_review',
  'active',
  'superpdp_failed',
] as const;

const sessionFields = {
  mode: {
    type: 'string',
    enum: ['api', 'redirect', 'embedded'],
    description:
      '`embedded`: a popup from your page (the callback page posts a message to it); `redirect`: a full-page redirect back to `callback_url`; `api`: you drive each step yourself.',
  },
  external_id: {
    type: 'string',
    minLength: 1,
    maxLength: 255,
    description: 'Your identifier for the company being onboarded.',
  },
  callback_url: {
    type: 'string',
    format: 'uri',
    pattern: '^https?://',
    maxLength: 2048,
    description:
      'Your page: in `redirect` mode the callback page sends the browser back to it with `session_id`, `code` and `state`; in `embedded` mode its origin is the only one the popup posts its message to.',
  },
  metadata: {
    type: 'object',
    maxProperties: 50,
    propertyNames: { type: 'string', minLength: 1, maxLength: 40 },
    additionalProperties: {
      anyOf: [{ type: 'string', maxLength: 500 }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
    },
    description:
      "Your key-value pairs, kept with the session and given to the sub-tenant it creates (at most 50 keys of 40 characters; strings of at most 500, numbers, booleans, null). `email` prefills the provider's form.",
  },
} as const;

export const CreateOnboardingSessionInput = {
  $id: 'CreateOnboardingSessionInput',
  type: 'object',
  description: 'A partner onboarding session: a company that will get its own tenant.',
  additionalProperties: false,
  required: ['mode'],
  properties: {
    ...sessionFields,
    state: {
      type: 'string',
      maxLength: 512,
      description: 'Your own opaque value, echoed back in redirect mode (not the OAuth state).',
    },
  },
} as const;
export type CreateOnboardingSessionInput = FromSchema<typeof CreateOnboardingSessionInput>;

export const CreateTenantOnboardingSessionInput = {
  $id: 'CreateTenantOnboardingSessionInput',
  type: 'object',
  description: 'A tenant onboarding session: a company that will become one of your sub-tenants.',
  additionalProperties: false,
  required: ['mode'],
  properties: sessionFields,
} as const;
export type CreateTenantOnboardingSessionInput = FromSchema<typeof CreateTenantOnboardingSessionInput>;

export const OnboardingSessionIdInput = {
  $id: 'OnboardingSessionIdInput',
  type: 'object',
  description: 'An onboarding session.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: SESSION_ID },
} as const;
export type OnboardingSessionIdInput = FromSchema<typeof OnboardingSessionIdInput>;

export const OnboardingSession = {
  $id: 'OnboardingSession',
  type: 'object',
  description: 'An onboarding session.',
  additionalProperties: false,
  required: [
    'id',
    'mode',
    'status',
    'onboarding_status',
    'environment',
    'external_id',
    'tenant_id',
    'sub_tenant_id',
    'expires_at',
    'completed_at',
    'resume_url',
  ],
  properties: {
    id: SESSION_ID,
    mode: sessionFields.mode,
    status: {
      type: 'string',
      enum: ['pending', 'completed', 'failed', 'expired'],
      description:
        '`pending` until the account is active, then `completed`; `failed` when refused; `expired` past `expires_at`.',
    },
    onboarding_status: {
      type: 'string',
      enum: ONBOARDING_STATUSES,
      description:
        'Step by step: `pending_superpdp` (created), `superpdp_redirected` (authorize URL issued), `superpdp_authorized` (code received), `superpdp_pending_review` (the provider is still verifying the company), `active`, `superpdp_failed`.',
    },
    environment: ENVIRONMENT,
    external_id: { type: ['string', 'null'], description: 'Your identifier.' },
    tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'The tenant created (partner sessions).' },
    sub_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The sub-tenant created (tenant sessions).',
    },
    expires_at: { type: 'string', format: 'date-time', description: 'After this, the session cannot be finished.' },
    completed_at: { type: ['string', 'null'], format: 'date-time', description: 'When the account became active.' },
    resume_url: {
      type: ['string', 'null'],
      description:
        'A signed link (valid until `expires_at`, 7 days) that sends the company to the provider again to finish; null once finished.',
    },
    redirect_url: { type: 'string', description: 'Redirect mode: where to send the browser to start.' },
  },
} as const;
export type OnboardingSession = FromSchema<typeof OnboardingSession>;

export const OnboardingAuthorizeInput = {
  $id: 'OnboardingAuthorizeInput',
  type: 'object',
  description: 'The session to send to the provider.',
  additionalProperties: false,
  required: ['session_id'],
  properties: { session_id: SESSION_ID },
} as const;
export type OnboardingAuthorizeInput = FromSchema<typeof OnboardingAuthorizeInput>;

export const OnboardingAuthorization = {
  $id: 'OnboardingAuthorization',
  type: 'object',
  description: "The provider's authorization page for the session: open it in a popup (or redirect to it).",
  additionalProperties: false,
  required: ['authorize_url', 'state'],
  properties: {
    authorize_url: { type: 'string', description: 'The URL to open (state and PKCE S256 challenge included).' },
    state: { type: 'string', description: 'The OAuth state bound to the session; single use.' },
  },
} as const;
export type OnboardingAuthorization = FromSchema<typeof OnboardingAuthorization>;

export const OnboardingCallbackInput = {
  $id: 'OnboardingCallbackInput',
  type: 'object',
  description: 'What the callback page posted: the provider code and the state.',
  additionalProperties: false,
  required: ['session_id', 'code', 'state'],
  properties: { session_id: SESSION_ID, code: PROVIDER_CODE, state: OAUTH_STATE },
} as const;
export type OnboardingCallbackInput = FromSchema<typeof OnboardingCallbackInput>;

const onboardedCompany = {
  type: 'object',
  description: 'The account created: a tenant (partner sessions) or a sub-tenant (tenant sessions).',
  additionalProperties: false,
  required: ['id', 'name', 'siret', 'environment'],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The new tenant (partner) or sub-tenant (tenant).' },
    name: { type: 'string', description: 'Company name.' },
    siret: { type: ['string', 'null'], description: 'SIRET, when the provider gave it.' },
    environment: ENVIRONMENT,
  },
} as const;

const callbackFields = {
  authorization_code: { type: 'string', description: 'Single use, valid 5 minutes: exchange it from your backend.' },
  expires_at: { type: 'string', format: 'date-time', description: 'When the authorization code stops working.' },
  status: {
    type: 'string',
    enum: ['completed', 'pending'],
    description: '`pending` while the provider still reviews the company (the key works in sandbox).',
  },
  tenant: onboardedCompany,
} as const;

export const OnboardingCallbackResult = {
  $id: 'OnboardingCallbackResult',
  type: 'object',
  description: 'The account is created: exchange the authorization code for its key.',
  additionalProperties: false,
  required: ['success', 'data'],
  properties: {
    success: { type: 'boolean', const: true, description: 'Always true on this answer.' },
    data: {
      type: 'object',
      description: 'The authorization code and the tenant created.',
      additionalProperties: false,
      required: ['authorization_code', 'expires_at', 'status', 'tenant'],
      properties: callbackFields,
    },
  },
} as const;
export type OnboardingCallbackResult = FromSchema<typeof OnboardingCallbackResult>;

export const TenantOnboardingCallbackResult = {
  $id: 'TenantOnboardingCallbackResult',
  type: 'object',
  description: 'The sub-tenant is created: exchange the authorization code for its key.',
  additionalProperties: false,
  required: ['success', 'authorization_code', 'expires_at', 'status', 'tenant'],
  properties: {
    success: { type: 'boolean', const: true, description: 'Always true on this answer.' },
    ...callbackFields,
  },
} as const;
export type TenantOnboardingCallbackResult = FromSchema<typeof TenantOnboardingCallbackResult>;

export const ExchangeOnboardingCodeInput = {
  $id: 'ExchangeOnboardingCodeInput',
  type: 'object',
  description: "Your backend's exchange of an authorization code for the new tenant's key.",
  additionalProperties: false,
  required: ['publishable_key', 'authorization_code'],
  properties: {
    publishable_key: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      description: 'Your publishable key (the session’s).',
    },
    authorization_code: AUTHORIZATION_CODE,
  },
} as const;
export type ExchangeOnboardingCodeInput = FromSchema<typeof ExchangeOnboardingCodeInput>;

export const OnboardingCredentials = {
  $id: 'OnboardingCredentials',
  type: 'object',
  description: 'The new tenant and its secret key, shown this once.',
  additionalProperties: false,
  required: ['tenant_id', 'api_key', 'environment'],
  properties: {
    tenant_id: { type: 'string', format: 'uuid', description: 'The new tenant.' },
    api_key: { type: 'string', description: 'Its secret key (sk_test_… or sk_live_…), shown this once.' },
    environment: ENVIRONMENT,
  },
} as const;
export type OnboardingCredentials = FromSchema<typeof OnboardingCredentials>;

export const ExchangeTenantOnboardingCodeInput = {
  $id: 'ExchangeTenantOnboardingCodeInput',
  type: 'object',
  description: "The exchange of an authorization code for the new sub-tenant's key.",
  additionalProperties: false,
  required: ['session_id', 'authorization_code'],
  properties: { session_id: SESSION_ID, authorization_code: AUTHORIZATION_CODE },
} as const;
export type ExchangeTenantOnboardingCodeInput = FromSchema<typeof ExchangeTenantOnboardingCodeInput>;

export const SubTenantOnboardingCredentials = {
  $id: 'SubTenantOnboardingCredentials',
  type: 'object',
  description: 'The new sub-tenant and a secret key bound to it, shown this once.',
  additionalProperties: false,
  required: ['sub_tenant_id', 'api_key', 'environment'],
  properties: {
    sub_tenant_id: { type: 'string', format: 'uuid', description: 'The new sub-tenant.' },
    api_key: { type: 'string', description: 'A secret key bound to the sub-tenant, shown this once.' },
    environment: ENVIRONMENT,
  },
} as const;
export type SubTenantOnboardingCredentials = FromSchema<typeof SubTenantOnboardingCredentials>;

/** The provider's redirect to the callback page (query string). */
export const OnboardingRedirectInput = {
  $id: 'OnboardingRedirectInput',
  type: 'object',
  description: "The provider's redirect back: `code` and `state`, or `error`.",
  additionalProperties: false,
  required: ['state'],
  properties: {
    state: OAUTH_STATE,
    code: PROVIDER_CODE,
    error: { type: 'string', maxLength: 200, description: 'OAuth error (`access_denied`).' },
    error_description: { type: 'string', maxLength: 1000, description: 'Its explanation.' },
  },
} as const;
export type OnboardingRedirectInput = FromSchema<typeof OnboardingRedirectInput>;

export const OnboardingRedirectPage = {
  $id: 'OnboardingRedirectPage',
  type: 'object',
  description: 'What the callback page tells the opener (or the redirect target).',
  additionalProperties: false,
  required: ['session_id', 'mode', 'target_origin', 'callback_url', 'client_state'],
  properties: {
    session_id: SESSION_ID,
    mode: sessionFields.mode,
    target_origin: { type: ['string', 'null'], description: 'The only origin the message goes to.' },
    callback_url: { type: ['string', 'null'], description: 'Redirect mode: where to send the browser.' },
    client_state: { type: ['string', 'null'], description: "The partner's own state, echoed back." },
  },
} as const;
export type OnboardingRedirectPage = FromSchema<typeof OnboardingRedirectPage>;

const simulatorRequest = {
  state: OAUTH_STATE,
  redirect_uri: { type: 'string', maxLength: 2048, description: 'Must be the service’s callback page.' },
  code_challenge: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', description: 'PKCE S256 challenge.' },
  code_challenge_method: { type: 'string', const: 'S256', description: 'Only S256.' },
  login_hint: { type: 'string', maxLength: 255, description: 'E-mail to prefill.' },
} as const;

export const OnboardingSimulatorRequest = {
  $id: 'OnboardingSimulatorRequest',
  type: 'object',
  description: "The onboarding simulator's authorization request (its page's query string).",
  additionalProperties: true,
  required: ['state', 'redirect_uri', 'code_challenge', 'code_challenge_method'],
  properties: simulatorRequest,
} as const;
export type OnboardingSimulatorRequest = FromSchema<typeof OnboardingSimulatorRequest>;

export const OnboardingSimulatorView = {
  $id: 'OnboardingSimulatorView',
  type: 'object',
  description: 'The session the simulator page serves.',
  additionalProperties: false,
  required: ['environment', 'variant'],
  properties: {
    environment: ENVIRONMENT,
    variant: {
      type: 'string',
      enum: ['partner', 'tenant'],
      description: 'Partner (a tenant) or tenant (a sub-tenant) session.',
    },
  },
} as const;
export type OnboardingSimulatorView = FromSchema<typeof OnboardingSimulatorView>;

export const OnboardingSimulatorDecision = {
  $id: 'OnboardingSimulatorDecision',
  type: 'object',
  description: "The simulator page's form: the company's account, approved or refused.",
  additionalProperties: true,
  required: ['state', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'decision'],
  properties: {
    ...simulatorRequest,
    decision: { type: 'string', enum: ['approve', 'refuse'], description: 'Approve (create the account) or refuse.' },
    company_name: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S', description: 'Company name.' },
    siret: { type: 'string', pattern: '^[0-9]{14}$', description: 'SIRET (14 digits, Luhn-valid).' },
    email: { type: 'string', format: 'email', maxLength: 255, description: 'Contact e-mail.' },
    review_seconds: {
      type: 'string',
      pattern: '^(0|[1-9][0-9]{0,2})$',
      description: 'Seconds "under review" before the company is verified (0: at once).',
    },
  },
} as const;
export type OnboardingSimulatorDecision = FromSchema<typeof OnboardingSimulatorDecision>;

export const OnboardingSimulatorRedirect = {
  $id: 'OnboardingSimulatorRedirect',
  type: 'object',
  description: 'Where the simulator sends the browser: the callback page with a code, or with an error.',
  additionalProperties: false,
  required: ['redirect_to'],
  properties: {
    redirect_to: { type: 'string', description: 'The callback page, with `code` and `state` or `error`.' },
  },
} as const;
export type OnboardingSimulatorRedirect = FromSchema<typeof OnboardingSimulatorRedirect>;

export const ResumeOnboardingInput = {
  $id: 'ResumeOnboardingInput',
  type: 'object',
  description: "A session's signed resume link.",
  additionalProperties: false,
  required: ['token'],
  properties: {
    token: { type: 'string', minLength: 10, maxLength: 2048, description: 'The signed token of the link.' },
  },
} as const;
export type ResumeOnboardingInput = FromSchema<typeof ResumeOnboardingInput>;

export const OnboardingReviewInput = {
  $id: 'OnboardingReviewInput',
  type: 'object',
  description: 'A session whose company the provider is still reviewing.',
  additionalProperties: false,
  required: ['session_id'],
  properties: { session_id: SESSION_ID },
} as const;
export type OnboardingReviewInput = FromSchema<typeof OnboardingReviewInput>;

export const OnboardingReviewOutcome = {
  $id: 'OnboardingReviewOutcome',
  type: 'object',
  description: 'Where the review stands.',
  additionalProperties: false,
  required: ['onboarding_status'],
  properties: {
    onboarding_status: { type: 'string', enum: ONBOARDING_STATUSES, description: 'The session’s step now.' },
  },
} as const;
export type OnboardingReviewOutcome = FromSchema<typeof OnboardingReviewOutcome>;

/** Internal: the state checked and spent, and what the code exchange needs (callback, first step). */
export const OnboardingClaim = {
  $id: 'OnboardingClaim',
  type: 'object',
  description: "A session's spent state: the provider and the PKCE verifier for the code exchange.",
  additionalProperties: false,
  required: ['session_id', 'provider', 'code_verifier'],
  properties: {
    session_id: SESSION_ID,
    provider: { type: 'string', enum: ['superpdp', 'simulator'], description: 'The provider the session was sent to.' },
    code_verifier: { type: 'string', description: 'The PKCE verifier, opened for the code exchange.' },
  },
} as const;
export type OnboardingClaim = FromSchema<typeof OnboardingClaim>;

/** Internal: what the provider gave, recorded in one transaction (callback, last step). */
export const CompleteOnboardingInput = {
  $id: 'CompleteOnboardingInput',
  type: 'object',
  description: 'The grant and the company the provider gave for a session.',
  additionalProperties: false,
  required: ['session_id', 'access_token', 'refresh_token', 'expires_in', 'company'],
  properties: {
    session_id: SESSION_ID,
    access_token: { type: 'string', maxLength: 8192, description: 'The first access token (sealed at rest).' },
    refresh_token: {
      type: ['string', 'null'],
      maxLength: 8192,
      description: 'The first refresh token (sealed at rest).',
    },
    expires_in: { type: 'integer', minimum: 0, description: 'Seconds the access token lives.' },
    company: {
      type: 'object',
      description: 'The company as the provider shows it.',
      additionalProperties: false,
      required: ['verification', 'name', 'siret', 'email'],
      properties: {
        verification: {
          type: 'string',
          enum: ['verified', 'needs_review', 'failed'],
          description: "The provider's verdict.",
        },
        name: { type: ['string', 'null'], maxLength: 255, description: 'Company name.' },
        siret: { type: ['string', 'null'], maxLength: 14, description: 'SIRET.' },
        email: { type: ['string', 'null'], maxLength: 255, description: 'Contact e-mail.' },
      },
    },
  },
} as const;
export type CompleteOnboardingInput = FromSchema<typeof CompleteOnboardingInput>;

/** Internal: the exchange's outcome, committed before a refusal is answered (a replay revokes the key). */
export const OnboardingRedemption = {
  $id: 'OnboardingRedemption',
  type: 'object',
  description: 'The outcome of an exchange.',
  additionalProperties: false,
  required: ['outcome'],
  properties: {
    outcome: {
      type: 'string',
      enum: ['issued', 'invalid', 'expired', 'replayed'],
      description: 'Issued, or why not.',
    },
    owner_id: { type: 'string', format: 'uuid', description: 'The new tenant or sub-tenant.' },
    api_key: { type: 'string', description: 'The key issued.' },
    environment: ENVIRONMENT,
  },
} as const;
export type OnboardingRedemption = FromSchema<typeof OnboardingRedemption>;

export const RedeemOnboardingCodeInput = {
  $id: 'RedeemOnboardingCodeInput',
  type: 'object',
  description: 'An exchange, partner or tenant variant.',
  additionalProperties: false,
  required: ['authorization_code'],
  properties: {
    authorization_code: AUTHORIZATION_CODE,
    publishable_key: { type: 'string', minLength: 1, maxLength: 100, description: "The partner's publishable key." },
    session_id: SESSION_ID,
  },
} as const;
export type RedeemOnboardingCodeInput = FromSchema<typeof RedeemOnboardingCodeInput>;

/** Internal: what the review job needs to ask the provider. */
export const OnboardingReviewTarget = {
  $id: 'OnboardingReviewTarget',
  type: 'object',
  description: 'A session under review and its provider connection.',
  additionalProperties: false,
  required: ['session_id', 'onboarding_status', 'provider', 'connection_id', 'connection_tenant_id', 'environment'],
  properties: {
    session_id: SESSION_ID,
    onboarding_status: { type: 'string', enum: ONBOARDING_STATUSES, description: 'The session’s step.' },
    provider: {
      type: ['string', 'null'],
      enum: ['superpdp', 'simulator', null],
      description: 'The provider reviewing.',
    },
    connection_id: { type: ['string', 'null'], format: 'uuid', description: 'The provider connection.' },
    connection_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'The tenant owning it.' },
    environment: ENVIRONMENT,
  },
} as const;
export type OnboardingReviewTarget = FromSchema<typeof OnboardingReviewTarget>;

/** Internal: the provider's verdict on a company it was reviewing. */
export const RecordOnboardingReviewInput = {
  $id: 'RecordOnboardingReviewInput',
  type: 'object',
  description: "The provider's verdict.",
  additionalProperties: false,
  required: ['session_id', 'verification', 'name', 'siret'],
  properties: {
    session_id: SESSION_ID,
    verification: { type: 'string', enum: ['verified', 'failed'], description: "The provider's verdict." },
    name: { type: ['string', 'null'], maxLength: 255, description: 'Company name, as the provider now shows it.' },
    siret: { type: ['string', 'null'], maxLength: 14, description: 'SIRET, as the provider now shows it.' },
  },
} as const;
export type RecordOnboardingReviewInput = FromSchema<typeof RecordOnboardingReviewInput>;

export const onboardingSchemas = [
  CreateOnboardingSessionInput,
  CreateTenantOnboardingSessionInput,
  OnboardingSessionIdInput,
  OnboardingSession,
  OnboardingAuthorizeInput,
  OnboardingAuthorization,
  OnboardingCallbackInput,
  OnboardingCallbackResult,
  TenantOnboardingCallbackResult,
  ExchangeOnboardingCodeInput,
  OnboardingCredentials,
  ExchangeTenantOnboardingCodeInput,
  SubTenantOnboardingCredentials,
  OnboardingRedirectInput,
  OnboardingRedirectPage,
  OnboardingSimulatorRequest,
  OnboardingSimulatorView,
  OnboardingSimulatorDecision,
  OnboardingSimulatorRedirect,
  ResumeOnboardingInput,
  OnboardingReviewInput,
  OnboardingReviewOutcome,
  OnboardingClaim,
  CompleteOnboardingInput,
  OnboardingRedemption,
  RedeemOnboardingCodeInput,
  OnboardingReviewTarget,
  RecordOnboardingReviewInput,
];
