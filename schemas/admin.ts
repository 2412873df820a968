import type { FromSchema } from 'json-schema-to-ts';
import { pageOf, pageParams } from './common.js';
import type { SubTenant } from './sub-tenants.js';

/**
 * The administration (spec "Admin"): platform figures, users and companies with their toggles, manual
 * balance movements, and the sub-tenants of every tenant. Callers are signed-in admins only.
 */

const ONBOARDING_STATUSES = ['pending', 'in_progress', 'completed'] as const;
const KYB_STATUSES = ['pending', 'documents_submitted', 'under_review', 'verified', 'rejected'] as const;
const KYC_STATUSES = ['not_started', 'pending', 'completed', 'failed'] as const;
const ENVIRONMENTS = ['sandbox', 'production'] as const;

/** A malformed id in a path answers 404, like an unknown one (api/http/bind-route.ts). */
const pathId = (description: string) => ({ type: 'string', format: 'uuid', description }) as const;
const time = (description: string) => ({ type: 'string', format: 'date-time', description }) as const;
const nullableTime = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;
const nullableString = (description: string) => ({ type: ['string', 'null'], description }) as const;
const count = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;
const search = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description: 'Case-insensitive search.',
} as const;

export const AdminStatsInput = {
  $id: 'AdminStatsInput',
  type: 'object',
  description: 'How many months of revenue to show.',
  additionalProperties: false,
  properties: {
    months: {
      type: 'integer',
      minimum: 1,
      maximum: 36,
      default: 12,
      description: 'Months of revenue, the current one included (default 12, at most 36).',
    },
  },
} as const;
export type AdminStatsInput = FromSchema<typeof AdminStatsInput>;

const byEnvironment = (description: string) =>
  ({
    type: 'object',
    description,
    additionalProperties: false,
    required: ['sandbox', 'production'],
    properties: { sandbox: count('In the sandbox.'), production: count('In production.') },
  }) as const;

export const AdminStats = {
  $id: 'AdminStats',
  type: 'object',
  description: 'Figures of the whole platform, counted at the time of the call.',
  additionalProperties: false,
  required: ['tenants', 'users', 'companies', 'sub_tenants', 'invoices', 'credit_notes', 'signatures', 'revenue'],
  properties: {
    tenants: {
      type: 'object',
      description: 'Tenants: platforms (API integrators) and the workspaces of dashboard users.',
      additionalProperties: false,
      required: ['total', 'platforms', 'workspaces', 'inactive'],
      properties: {
        total: count('Every tenant.'),
        platforms: count('Platform tenants.'),
        workspaces: count('Workspaces of dashboard users.'),
        inactive: count('Deactivated tenants.'),
      },
    },
    users: {
      type: 'object',
      description: 'Dashboard users.',
      additionalProperties: false,
      required: ['total', 'active', 'disabled', 'admins'],
      properties: {
        total: count('Every user.'),
        active: count('Users who can sign in.'),
        disabled: count('Users an admin disabled.'),
        admins: count('Users holding the `admin access` permission.'),
      },
    },
    companies: {
      type: 'object',
      description: 'Companies (deleted ones not counted).',
      additionalProperties: false,
      required: ['total', 'active', 'inactive'],
      properties: {
        total: count('Every live company.'),
        active: count('Enabled companies.'),
        inactive: count('Companies an admin disabled.'),
      },
    },
    sub_tenants: byEnvironment("Platforms' sub-tenants."),
    invoices: byEnvironment('Invoices (deleted drafts not counted).'),
    credit_notes: byEnvironment('Credit notes (deleted drafts not counted).'),
    signatures: byEnvironment('Signature requests.'),
    revenue: {
      type: 'array',
      description:
        'What the service charged (invoices, credit notes and signatures, from their `amount_charged`), per month (UTC) and environment, newest first; months without any document are left out. Sandbox is free, so its amounts are 0.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['month', 'environment', 'invoices', 'credit_notes', 'signatures', 'total', 'currency'],
        properties: {
          month: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}$', description: 'YYYY-MM.' },
          environment: { type: 'string', enum: ENVIRONMENTS, description: 'sandbox or production.' },
          invoices: { type: 'number', description: 'Charged for invoices, EUR.' },
          credit_notes: { type: 'number', description: 'Charged for credit notes, EUR.' },
          signatures: {
            type: 'number',
            description: 'Charged for signature requests, EUR (a `failed` one, refunded, not counted).',
          },
          total: { type: 'number', description: 'The three together, EUR.' },
          currency: { type: 'string', enum: ['EUR'], description: 'Always EUR.' },
        },
      },
    },
  },
} as const;
export type AdminStats = FromSchema<typeof AdminStats>;

export const AdminUserListInput = {
  $id: 'AdminUserListInput',
  type: 'object',
  description: 'Filters and page of every dashboard user.',
  additionalProperties: false,
  properties: {
    ...pageParams(),
    search: { ...search, description: 'Case-insensitive search in e-mail, first and last name.' },
    status: { type: 'string', enum: ['active', 'disabled'], description: 'Only enabled or only disabled users.' },
    role: { type: 'string', enum: ['user', 'admin'], description: 'Only users of this role.' },
  },
} as const;
export type AdminUserListInput = FromSchema<typeof AdminUserListInput>;

export const AdminUser = {
  $id: 'AdminUser',
  type: 'object',
  description: 'A dashboard user as the administration sees it.',
  additionalProperties: false,
  required: [
    'id',
    'tenant_id',
    'email',
    'first_name',
    'last_name',
    'role',
    'is_admin',
    'is_active',
    'disabled_at',
    'email_verified_at',
    'last_login_at',
    'created_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the user.' },
    tenant_id: {
      type: 'string',
      format: 'uuid',
      description: "The user's workspace (its balance, keys and companies).",
    },
    email: { type: 'string', description: 'Sign-in e-mail.' },
    first_name: { type: 'string', description: 'First name.' },
    last_name: { type: 'string', description: 'Last name.' },
    role: { type: 'string', enum: ['user', 'admin'], description: 'user or admin.' },
    is_admin: { type: 'boolean', description: 'Holds the `admin access` permission.' },
    is_active: {
      type: 'boolean',
      description: 'false: an admin disabled the account; its tokens and keys are refused.',
    },
    disabled_at: nullableTime('When the account was disabled; null while it is enabled.'),
    email_verified_at: nullableTime('When the e-mail address was verified.'),
    last_login_at: nullableTime('Last sign-in.'),
    created_at: time('Creation time.'),
  },
} as const;
export type AdminUser = FromSchema<typeof AdminUser>;

export const AdminUserList = pageOf('AdminUserList', 'AdminUser', 'A page of dashboard users.');

export const AdminIdInput = {
  $id: 'AdminIdInput',
  type: 'object',
  description: 'The user or company in the path.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: pathId('Id of the user or company.') },
} as const;
export type AdminIdInput = FromSchema<typeof AdminIdInput>;

export const AdminToggleStatusInput = {
  $id: 'AdminToggleStatusInput',
  type: 'object',
  description: 'Disables an enabled user or company, or enables a disabled one.',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: pathId('Id of the user or company.'),
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      description: 'Why, kept in the admin audit log.',
    },
  },
} as const;
export type AdminToggleStatusInput = FromSchema<typeof AdminToggleStatusInput>;

export const AdminCompanyListInput = {
  $id: 'AdminCompanyListInput',
  type: 'object',
  description: 'Filters and page of every company (deleted ones left out).',
  additionalProperties: false,
  properties: {
    ...pageParams(),
    search: { ...search, description: 'Case-insensitive search in name, SIRET and e-mail.' },
    status: { type: 'string', enum: ['active', 'inactive'], description: 'Only enabled or only disabled companies.' },
    kyc_status: { type: 'string', enum: KYC_STATUSES, description: 'Only companies at this KYC stage.' },
    tenant_id: { type: 'string', format: 'uuid', description: 'Only the companies of this tenant or workspace.' },
  },
} as const;
export type AdminCompanyListInput = FromSchema<typeof AdminCompanyListInput>;

export const AdminCompany = {
  $id: 'AdminCompany',
  type: 'object',
  description: 'A company as the administration sees it, with its owner and figures.',
  additionalProperties: false,
  required: [
    'id',
    'tenant_id',
    'sub_tenant_id',
    'name',
    'siret',
    'vat_number',
    'email',
    'city',
    'country',
    'status',
    'kyc_status',
    'owner_email',
    'invoices_count',
    'api_keys_count',
    'created_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the company.' },
    tenant_id: { type: 'string', format: 'uuid', description: 'Its tenant or workspace.' },
    sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: "A platform's sub-tenant it belongs to." },
    name: { type: 'string', description: 'Name.' },
    siret: { type: 'string', description: 'SIRET.' },
    vat_number: nullableString('VAT number.'),
    email: nullableString('Contact e-mail.'),
    city: { type: 'string', description: 'City.' },
    country: { type: 'string', description: 'ISO 3166-1 alpha-2.' },
    status: {
      type: 'string',
      enum: ['active', 'inactive'],
      description: 'inactive: an admin disabled it; the API keys restricted to it are refused.',
    },
    kyc_status: { type: 'string', enum: KYC_STATUSES, description: 'KYC stage.' },
    owner_email: nullableString("E-mail of the workspace's user, or the platform's e-mail."),
    invoices_count: count('Invoices of the company (deleted drafts not counted).'),
    api_keys_count: count('Active API keys restricted to the company.'),
    created_at: time('Creation time.'),
  },
} as const;
export type AdminCompany = FromSchema<typeof AdminCompany>;

export const AdminCompanyList = pageOf('AdminCompanyList', 'AdminCompany', 'A page of companies.');

export const AdminBalanceMovementInput = {
  $id: 'AdminBalanceMovementInput',
  type: 'object',
  description: "A manual credit or debit of a user's workspace balance, with its reason.",
  additionalProperties: false,
  required: ['userId', 'amount', 'reason'],
  properties: {
    userId: pathId('Id of the user whose workspace balance moves.'),
    amount: { type: 'number', exclusiveMinimum: 0, maximum: 1000000, description: 'EUR, at most 2 decimals.' },
    reason: { type: 'string', minLength: 1, maxLength: 500, description: 'Why, kept with the transaction.' },
  },
} as const;
export type AdminBalanceMovementInput = FromSchema<typeof AdminBalanceMovementInput>;

export const AdminSubTenantListInput = {
  $id: 'AdminSubTenantListInput',
  type: 'object',
  description: 'Filters and page of the tenants that have sub-tenants, each with its sub-tenants.',
  additionalProperties: false,
  properties: {
    ...pageParams(20, 100),
    search: {
      ...search,
      description:
        "Case-insensitive search in the tenant's name, legal name, SIRET and billing e-mail, and in the sub-tenants' name, external id, SIRET and e-mail.",
    },
    onboarding_status: {
      type: 'string',
      enum: ONBOARDING_STATUSES,
      description: 'Only sub-tenants at this onboarding stage (and the tenants that have one).',
    },
  },
} as const;
export type AdminSubTenantListInput = FromSchema<typeof AdminSubTenantListInput>;

const TENANT_PROPERTIES = {
  id: { type: 'string', format: 'uuid', description: 'Id of the tenant.' },
  name: { type: 'string', description: 'Name.' },
  legal_name: nullableString('Legal name.'),
  siret: nullableString('SIRET.'),
  billing_email: nullableString('Billing e-mail.'),
  kyb_status: { type: 'string', enum: KYB_STATUSES, description: 'KYB stage.' },
} as const;
const TENANT_REQUIRED = ['id', 'name', 'legal_name', 'siret', 'billing_email', 'kyb_status'] as const;

export const AdminSubTenantTenant = {
  $id: 'AdminSubTenantTenant',
  type: 'object',
  description: 'A platform tenant with its sub-tenants (those the filters keep).',
  additionalProperties: false,
  required: [...TENANT_REQUIRED, 'sub_tenants_count', 'sub_tenants'],
  properties: {
    ...TENANT_PROPERTIES,
    sub_tenants_count: count('Sub-tenants listed below.'),
    sub_tenants: { type: 'array', items: { $ref: 'SubTenant' }, description: 'Its sub-tenants, newest first.' },
  },
} as const;
export type AdminSubTenantTenant = FromSchema<typeof AdminSubTenantTenant, { references: [typeof SubTenant] }>;

export const AdminSubTenantList = pageOf(
  'AdminSubTenantList',
  'AdminSubTenantTenant',
  'A page of tenants with their sub-tenants.',
);

export const AdminSubTenantIdInput = {
  $id: 'AdminSubTenantIdInput',
  type: 'object',
  description: 'The sub-tenant in the path.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: pathId('Id of the sub-tenant.') },
} as const;
export type AdminSubTenantIdInput = FromSchema<typeof AdminSubTenantIdInput>;

export const AdminSubTenantDetail = {
  $id: 'AdminSubTenantDetail',
  type: 'object',
  description: 'One sub-tenant, its tenant and its figures.',
  additionalProperties: false,
  required: ['sub_tenant', 'tenant', 'stats'],
  properties: {
    sub_tenant: { $ref: 'SubTenant', description: 'The sub-tenant.' },
    tenant: {
      type: 'object',
      description: 'The platform tenant it belongs to.',
      additionalProperties: false,
      required: TENANT_REQUIRED,
      properties: TENANT_PROPERTIES,
    },
    stats: {
      type: 'object',
      description: 'Counted at the time of the call.',
      additionalProperties: false,
      required: ['companies_count', 'invoices_count', 'credit_notes_count'],
      properties: {
        companies_count: count('Companies (deleted ones not counted).'),
        invoices_count: count('Invoices (deleted drafts not counted).'),
        credit_notes_count: count('Credit notes (deleted drafts not counted).'),
      },
    },
  },
} as const;
export type AdminSubTenantDetail = FromSchema<typeof AdminSubTenantDetail, { references: [typeof SubTenant] }>;

export const AdminDeleteSubTenantInput = {
  $id: 'AdminDeleteSubTenantInput',
  type: 'object',
  description: 'The sub-tenant to delete, and whether its companies go with it.',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: pathId('Id of the sub-tenant.'),
    cascade: {
      type: 'boolean',
      default: false,
      description:
        'true: its companies are deleted with it (their keys revoked). Without it, a sub-tenant with companies is refused. Fiscal entries always refuse the deletion.',
    },
  },
} as const;
export type AdminDeleteSubTenantInput = FromSchema<typeof AdminDeleteSubTenantInput>;

export const AdminSubTenantDeleted = {
  $id: 'AdminSubTenantDeleted',
  type: 'object',
  description: 'The sub-tenant was deleted, its keys revoked.',
  additionalProperties: false,
  required: ['message', 'companies_deleted'],
  properties: {
    message: { type: 'string', description: 'What was done.' },
    companies_deleted: count('Companies deleted with it (0 without cascade).'),
  },
} as const;
export type AdminSubTenantDeleted = FromSchema<typeof AdminSubTenantDeleted>;

export const SubTenantStatusOptions = {
  $id: 'SubTenantStatusOptions',
  type: 'object',
  description: 'The values of the `onboarding_status` filter, with a label to show.',
  additionalProperties: false,
  required: ['data'],
  properties: {
    data: {
      type: 'array',
      description: 'Every onboarding stage, in order.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['value', 'label'],
        properties: {
          value: { type: 'string', enum: ONBOARDING_STATUSES, description: 'The value to filter on.' },
          label: { type: 'string', description: 'Its label.' },
        },
      },
    },
  },
} as const;
export type SubTenantStatusOptions = FromSchema<typeof SubTenantStatusOptions>;

export const adminSchemas = [
  AdminStatsInput,
  AdminStats,
  AdminUserListInput,
  AdminUser,
  AdminUserList,
  AdminIdInput,
  AdminToggleStatusInput,
  AdminCompanyListInput,
  AdminCompany,
  AdminCompanyList,
  AdminBalanceMovementInput,
  AdminSubTenantListInput,
  AdminSubTenantTenant,
  AdminSubTenantList,
  AdminSubTenantIdInput,
  AdminSubTenantDetail,
  AdminDeleteSubTenantInput,
  AdminSubTenantDeleted,
  SubTenantStatusOptions,
];
