import type { Company, CompanyKycStatus, CreateCompanyInput } from '../../schemas/companies.js';
import { AppError } from '../shared/app-error.js';
import { isValidSiret } from '../tenants/index.js';
import { isCountryCode } from './countries.js';

export type KycStatus = 'not_started' | 'pending' | 'completed' | 'failed';

/** A `companies` row as stored (migrations/20261122000900_create_companies.ts). */
export interface CompanyRow {
  id: string;
  tenant_id: string;
  name: string;
  siret: string;
  vat_number: string | null;
  legal_form: string | null;
  address_line1: string;
  address_line2: string | null;
  postal_code: string;
  city: string;
  country: string;
  phone: string | null;
  email: string | null;
  website: string | null;
  status: 'active' | 'inactive';
  kyc_status: KycStatus;
  kyc_reference: string | null;
  kyc_started_at: Date | null;
  kyc_completed_at: Date | null;
  kyc_failure_reason: string | null;
  kyc_verification_url: string | null;
  created_at: Date;
}

/** The writable fields, as stored. */
export type CompanyFields = Required<{ [K in keyof CreateCompanyInput]: Exclude<CreateCompanyInput[K], undefined> }>;

const REQUIRED_TEXT = ['name', 'address_line1', 'postal_code', 'city'] as const;
const OPTIONAL_TEXT = ['vat_number', 'legal_form', 'address_line2', 'phone', 'email', 'website'] as const;

/**
 * Trims every text field; a blank optional field becomes null. SIRET and VAT number lose their
 * spaces (they are printed grouped: `732 829 320 00074`) and the VAT number is upper-cased.
 */
export function normalizeFields<T extends Partial<CompanyFields>>(input: T): T {
  const out: Record<string, unknown> = { ...input };
  for (const [field, value] of Object.entries(out)) {
    if (typeof value === 'string') out[field] = value.trim();
  }
  for (const field of OPTIONAL_TEXT) if (out[field] === '') out[field] = null;
  if (typeof out.siret === 'string') out.siret = out.siret.replace(/\s+/g, '');
  if (typeof out.vat_number === 'string') out.vat_number = out.vat_number.replace(/[\s.-]+/g, '').toUpperCase();
  return out as T;
}

/** The French VAT key: (12 + 3 × (SIREN mod 97)) mod 97, two digits. */
export const frenchVatKey = (siren: string): string => String((12 + 3 * (Number(siren) % 97)) % 97).padStart(2, '0');

/**
 * The rules a schema cannot say, over the company as it will be stored (a PUT's changes merged
 * into the current row). Messages are keyed by field, as the specification's 422 shape wants.
 */
export function assertValidCompany(company: CompanyFields): void {
  const errors: Record<string, string[]> = {};
  for (const field of REQUIRED_TEXT) if (!company[field]) errors[field] = ['must not be blank'];

  if (!/^[0-9]{14}$/.test(company.siret)) errors.siret = ['must be 14 digits'];
  else if (!isValidSiret(company.siret)) errors.siret = ['is not a valid SIRET (check digit mismatch)'];

  if (!isCountryCode(company.country)) errors.country = ['must be an ISO 3166-1 alpha-2 country code, such as FR'];
  else if (company.country === 'FR' && company.postal_code && !/^[0-9]{5}$/.test(company.postal_code)) {
    errors.postal_code = ['must be 5 digits for a French address'];
  }

  const vat = company.vat_number;
  if (vat !== null) {
    if (!/^[A-Z]{2}[0-9A-Z]{2,13}$/.test(vat)) {
      errors.vat_number = ['must be a VAT number: a 2-letter country prefix, then 2 to 13 letters or digits'];
    } else if (vat.startsWith('FR') && !errors.siret) {
      // A French VAT number is FR + key + SIREN, and the SIREN is the SIRET's first nine digits.
      const siren = company.siret.slice(0, 9);
      const expected = `FR${frenchVatKey(siren)}${siren}`;
      if (vat !== expected) errors.vat_number = [`does not match the SIRET: its VAT number is ${expected}`];
    }
  }

  if (company.website !== null && !/^https?:\/\/[^\s/]+/i.test(company.website)) {
    errors.website = ['must be an http or https URL'];
  }
  if (company.phone !== null && !/^\+?[0-9][0-9 ().-]{3,28}[0-9)]$/.test(company.phone)) {
    errors.phone = ['must be a phone number: digits, spaces and + ( ) . -'];
  }
  if (Object.keys(errors).length) throw AppError.validation(errors);
}

/** The SIRET can change only before a verification started or after one failed: it is what was verified. */
export function assertSiretChangeable(row: CompanyRow, siret: string | undefined): void {
  if (siret === undefined || siret === row.siret) return;
  if (row.kyc_status === 'pending' || row.kyc_status === 'completed') {
    throw AppError.validation({
      siret: [`cannot change once KYC is ${row.kyc_status}; create another company for another SIRET`],
    });
  }
}

export const SIRET_TAKEN = (): AppError => AppError.validation({ siret: ['has already been taken'] });

const iso = (value: Date | null): string | null => (value ? value.toISOString() : null);

export function toCompanyView(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    siret: row.siret,
    vat_number: row.vat_number,
    legal_form: row.legal_form,
    address_line1: row.address_line1,
    address_line2: row.address_line2,
    postal_code: row.postal_code,
    city: row.city,
    country: row.country,
    phone: row.phone,
    email: row.email,
    website: row.website,
    status: row.status,
    kyc_status: row.kyc_status,
    kyc_completed_at: iso(row.kyc_completed_at),
    created_at: row.created_at.toISOString(),
  };
}

export function toKycStatusView(row: CompanyRow): CompanyKycStatus {
  return {
    status: row.kyc_status,
    completed_at: iso(row.kyc_completed_at),
    reference: row.kyc_reference,
    started_at: iso(row.kyc_started_at),
    failure_reason: row.kyc_status === 'failed' ? row.kyc_failure_reason : null,
  };
}
