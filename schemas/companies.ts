import type { FromSchema } from 'json-schema-to-ts';
import { pageOf, pageParams } from './common.js';

/** The writable fields of a company (spec "Resources": Company); the domain checks what a schema cannot. */
const companyFields = {
  name: { type: 'string', minLength: 1, maxLength: 255, description: 'Legal name.' },
  siret: {
    type: 'string',
    minLength: 1,
    maxLength: 32,
    description: 'SIRET: 14 digits with a valid Luhn check digit (La Poste establishments excepted); spaces ignored.',
  },
  vat_number: {
    type: ['string', 'null'],
    maxLength: 32,
    description:
      'Intra-community VAT number (`FR40303265045`); spaces ignored. A French one must match the SIRET: FR + key + SIREN.',
  },
  legal_form: { type: ['string', 'null'], maxLength: 100, description: 'Legal form (SAS, SARL, EI, ...).' },
  address_line1: { type: 'string', minLength: 1, maxLength: 255, description: 'First address line.' },
  address_line2: { type: ['string', 'null'], maxLength: 255, description: 'Second address line.' },
  postal_code: {
    type: 'string',
    minLength: 1,
    maxLength: 20,
    description: 'Postal code (5 digits in France).',
  },
  city: { type: 'string', minLength: 1, maxLength: 255, description: 'City.' },
  country: {
    type: 'string',
    pattern: '^[A-Z]{2}$',
    description: 'ISO 3166-1 alpha-2 country code, upper case.',
  },
  phone: { type: ['string', 'null'], maxLength: 30, description: 'Phone number (digits, spaces, + ( ) . -).' },
  email: { type: ['string', 'null'], format: 'email', maxLength: 255, description: 'Contact e-mail.' },
  website: { type: ['string', 'null'], format: 'uri', maxLength: 255, description: 'Website, an http(s) URL.' },
} as const;

/**
 * Path ids are plain strings: a malformed id is an unknown company (404), not a validation error,
 * so that an id never tells whether it exists elsewhere.
 */
/** A malformed id in a path answers 404, like an unknown one (api/http/bind-route.ts). */
const companyId = { type: 'string', format: 'uuid', description: 'Id of the company.' } as const;

export const CreateCompanyInput = {
  $id: 'CreateCompanyInput',
  type: 'object',
  description: 'A legal entity the user invoices as.',
  additionalProperties: false,
  required: ['name', 'siret', 'address_line1', 'postal_code', 'city'],
  properties: {
    ...companyFields,
    country: { ...companyFields.country, default: 'FR', description: 'ISO 3166-1 alpha-2 code, upper case (FR).' },
  },
} as const;
export type CreateCompanyInput = FromSchema<typeof CreateCompanyInput>;

export const UpdateCompanyInput = {
  $id: 'UpdateCompanyInput',
  type: 'object',
  description: 'The fields to change (at least one); fields left out keep their value, null clears an optional one.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: companyId, ...companyFields },
} as const;
export type UpdateCompanyInput = FromSchema<typeof UpdateCompanyInput>;

export const CompanyIdInput = {
  $id: 'CompanyIdInput',
  type: 'object',
  description: 'One company of the caller.',
  additionalProperties: false,
  required: ['id'],
  properties: { id: companyId },
} as const;
export type CompanyIdInput = FromSchema<typeof CompanyIdInput>;

export const ListCompaniesInput = {
  $id: 'ListCompaniesInput',
  type: 'object',
  description: "A page of the caller's companies, newest first.",
  additionalProperties: false,
  properties: { ...pageParams() },
} as const;
export type ListCompaniesInput = FromSchema<typeof ListCompaniesInput>;

const KYC_STATUSES = ['not_started', 'pending', 'completed', 'failed'] as const;
const nullableTime = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;

export const Company = {
  $id: 'Company',
  type: 'object',
  description: 'A legal entity of the user, with its KYC state.',
  additionalProperties: false,
  required: [
    'id',
    'name',
    'siret',
    'vat_number',
    'legal_form',
    'address_line1',
    'address_line2',
    'postal_code',
    'city',
    'country',
    'phone',
    'email',
    'website',
    'status',
    'kyc_status',
    'kyc_completed_at',
    'created_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the company.' },
    name: { type: 'string', description: 'Legal name.' },
    siret: { type: 'string', description: 'SIRET, 14 digits.' },
    vat_number: { type: ['string', 'null'], description: 'Intra-community VAT number.' },
    legal_form: { type: ['string', 'null'], description: 'Legal form.' },
    address_line1: { type: 'string', description: 'First address line.' },
    address_line2: { type: ['string', 'null'], description: 'Second address line.' },
    postal_code: { type: 'string', description: 'Postal code.' },
    city: { type: 'string', description: 'City.' },
    country: { type: 'string', description: 'ISO 3166-1 alpha-2 country code.' },
    phone: { type: ['string', 'null'], description: 'Phone number.' },
    email: { type: ['string', 'null'], description: 'Contact e-mail.' },
    website: { type: ['string', 'null'], description: 'Website.' },
    status: { type: 'string', enum: ['active', 'inactive'], description: 'Whether the company may be used.' },
    kyc_status: {
      type: 'string',
      enum: KYC_STATUSES,
      description: 'Identity verification (KYB) of the company: not_started, pending, completed or failed.',
    },
    kyc_completed_at: nullableTime('When the KYC completed; production API keys work from then on.'),
    created_at: { type: 'string', format: 'date-time', description: 'When the company was created.' },
  },
} as const;
export type Company = FromSchema<typeof Company>;

export const CompanyList = pageOf('CompanyList', 'Company', "A page of the user's companies, newest first.");

export const CompanyDeleted = {
  $id: 'CompanyDeleted',
  type: 'object',
  description: 'The company is deleted: its SIRET is free again and the API keys restricted to it are revoked.',
  additionalProperties: false,
  required: ['message'],
  properties: { message: { type: 'string', description: 'What happened.' } },
} as const;
export type CompanyDeleted = FromSchema<typeof CompanyDeleted>;

export const CompanyKycSession = {
  $id: 'CompanyKycSession',
  type: 'object',
  description: 'The verification in progress (started now, or the one already pending).',
  additionalProperties: false,
  required: ['status', 'reference', 'started_at', 'verification_url'],
  properties: {
    status: { type: 'string', enum: ['pending'], description: 'Always `pending`: the outcome comes later.' },
    reference: { type: 'string', description: "The verification provider's reference." },
    started_at: { type: 'string', format: 'date-time', description: 'When this verification started.' },
    verification_url: {
      type: ['string', 'null'],
      description:
        "Where the company's representative completes the verification, when the provider needs it; null when the provider verifies from the company's data alone (the simulator).",
    },
  },
} as const;
export type CompanyKycSession = FromSchema<typeof CompanyKycSession>;

export const CompanyKycStatus = {
  $id: 'CompanyKycStatus',
  type: 'object',
  description: 'Where the KYC (KYB) of a company stands.',
  additionalProperties: false,
  required: ['status', 'completed_at', 'reference', 'started_at', 'failure_reason'],
  properties: {
    status: { type: 'string', enum: KYC_STATUSES, description: 'not_started, pending, completed or failed.' },
    completed_at: nullableTime('When the verification completed.'),
    reference: { type: ['string', 'null'], description: "The verification provider's reference, once started." },
    started_at: nullableTime('When the latest verification started.'),
    failure_reason: { type: ['string', 'null'], description: 'Why the verification failed (status `failed` only).' },
  },
} as const;
export type CompanyKycStatus = FromSchema<typeof CompanyKycStatus>;

export const RecordCompanyKycInput = {
  $id: 'RecordCompanyKycInput',
  type: 'object',
  description: "The provider's final answer for one verification (worker only).",
  additionalProperties: false,
  required: ['company_id', 'reference', 'outcome'],
  properties: {
    company_id: { type: 'string', format: 'uuid', description: 'The verified company.' },
    reference: { type: 'string', minLength: 1, description: 'The verification the answer is for.' },
    outcome: { type: 'string', enum: ['approved', 'rejected'], description: "The provider's decision." },
    reason: { type: 'string', maxLength: 1000, description: 'Why it was rejected.' },
  },
} as const;
export type RecordCompanyKycInput = FromSchema<typeof RecordCompanyKycInput>;

export const companySchemas = [
  CreateCompanyInput,
  UpdateCompanyInput,
  CompanyIdInput,
  ListCompaniesInput,
  Company,
  CompanyList,
  CompanyDeleted,
  CompanyKycSession,
  CompanyKycStatus,
  RecordCompanyKycInput,
];
