import type { FromSchema } from 'json-schema-to-ts';

/**
 * Schemas of the operations the MCP tools reach that no HTTP route had before: identifier checks,
 * the key check, and the audit trails of signatures and credit notes (spec "MCP server": Validation,
 * System, Audit tools).
 */

export const ValidateSiretInput = {
  $id: 'ValidateSiretInput',
  type: 'object',
  description: 'A SIRET to check.',
  additionalProperties: false,
  required: ['siret'],
  properties: {
    siret: {
      type: 'string',
      minLength: 1,
      maxLength: 40,
      description: 'The SIRET, 14 digits; spaces are ignored (`732 829 320 00074`).',
    },
  },
} as const;
export type ValidateSiretInput = FromSchema<typeof ValidateSiretInput>;

export const SiretValidation = {
  $id: 'SiretValidation',
  type: 'object',
  description:
    "The SIRET's form and check digit (Luhn, or La Poste's digit sum). Not a registry lookup: a valid number may belong to no open establishment.",
  additionalProperties: false,
  required: ['siret', 'valid', 'siren', 'vat_number', 'reason'],
  properties: {
    siret: { type: 'string', description: 'The SIRET as checked, spaces removed.' },
    valid: { type: 'boolean', description: 'The number has 14 digits and its check digit matches.' },
    siren: { type: ['string', 'null'], description: 'The first nine digits (the company), when valid.' },
    vat_number: {
      type: ['string', 'null'],
      description: 'The French intra-community VAT number derived from the SIREN (FR + key + SIREN), when valid.',
    },
    reason: { type: ['string', 'null'], description: 'Why the number is not valid; null when it is.' },
  },
} as const;
export type SiretValidation = FromSchema<typeof SiretValidation>;

export const ValidateVatInput = {
  $id: 'ValidateVatInput',
  type: 'object',
  description: 'An intra-community VAT number to check.',
  additionalProperties: false,
  required: ['vat_number'],
  properties: {
    vat_number: {
      type: 'string',
      minLength: 1,
      maxLength: 40,
      description:
        'The VAT number with its two-letter country prefix (`FR44732829320`); spaces, dots and dashes are ignored.',
    },
    siret: {
      type: 'string',
      maxLength: 40,
      description: 'Optional: the SIRET the French VAT number must belong to (its SIREN must match).',
    },
  },
} as const;
export type ValidateVatInput = FromSchema<typeof ValidateVatInput>;

export const VatValidation = {
  $id: 'VatValidation',
  type: 'object',
  description:
    "The VAT number's form (country prefix of an EU member, 2 to 13 letters or digits) and, for French numbers, the key computed from the SIREN. Not a VIES lookup.",
  additionalProperties: false,
  required: ['vat_number', 'valid', 'country_code', 'reason'],
  properties: {
    vat_number: { type: 'string', description: 'The number as checked, normalised (upper case, no separators).' },
    valid: { type: 'boolean', description: 'The number is well formed (and, for FR, its key matches its SIREN).' },
    country_code: { type: ['string', 'null'], description: 'The two-letter prefix, when it is one.' },
    reason: { type: ['string', 'null'], description: 'Why the number is not valid; null when it is.' },
  },
} as const;
export type VatValidation = FromSchema<typeof VatValidation>;

export const ApiKeyValidation = {
  $id: 'ApiKeyValidation',
  type: 'object',
  description: 'The key the call was made with: valid (else the call fails with 401), and what it may do.',
  additionalProperties: false,
  required: ['valid', 'owner', 'environment', 'scopes', 'sub_tenant_id', 'company_id'],
  properties: {
    valid: { type: 'boolean', const: true, description: 'Always true: an invalid key is refused before this.' },
    owner: {
      type: 'string',
      enum: ['user', 'tenant'],
      description: "`user`: a dashboard account's key (16 MCP tools); `tenant`: a platform's key (all 54).",
    },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'From the key prefix.' },
    scopes: { type: 'array', items: { type: 'string' }, description: 'The scopes the key carries.' },
    sub_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The sub-tenant a tenant key is bound to, if any.',
    },
    company_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: "The company a user's key is bound to, if any.",
    },
  },
} as const;
export type ApiKeyValidation = FromSchema<typeof ApiKeyValidation>;

export const FiscalExportLinkInput = {
  $id: 'FiscalExportLinkInput',
  type: 'object',
  description: 'Which fiscal export to link to: the FEC of a period, or the forensic archive.',
  additionalProperties: false,
  required: ['export'],
  properties: {
    export: {
      type: 'string',
      enum: ['fec', 'forensic'],
      description: '`fec`: the FEC text file; `forensic`: the ZIP archive.',
    },
    year: { type: 'integer', minimum: 2000, maximum: 2100, description: 'FEC only, required: the calendar year.' },
    month: { type: 'integer', minimum: 1, maximum: 12, description: 'FEC only: one month of the year.' },
    format: { type: 'string', enum: ['tab', 'pipe'], default: 'tab', description: 'FEC only: field separator.' },
    sub_tenant_id: {
      type: 'string',
      format: 'uuid',
      description: "One sub-tenant's chain; the tenant's own (FEC) or all its chains (forensic) when left out.",
    },
  },
} as const;
export type FiscalExportLinkInput = FromSchema<typeof FiscalExportLinkInput>;

export const FiscalExportFileInput = {
  $id: 'FiscalExportFileInput',
  type: 'object',
  description: 'A fiscal export download link token.',
  additionalProperties: false,
  required: ['token'],
  properties: {
    token: { type: 'string', maxLength: 4096, description: 'The signed token of the download link.' },
  },
} as const;
export type FiscalExportFileInput = FromSchema<typeof FiscalExportFileInput>;

export const FiscalExportFile = {
  $id: 'FiscalExportFile',
  type: 'string',
  description:
    'The file behind a fiscal export link: the FEC (text/plain, `<SIREN>FEC<YYYYMMDD>.txt`) or the forensic archive (application/zip), built when the link is used.',
} as const;

export const mcpSchemas = [
  ValidateSiretInput,
  SiretValidation,
  ValidateVatInput,
  VatValidation,
  ApiKeyValidation,
  FiscalExportLinkInput,
  FiscalExportFileInput,
  FiscalExportFile,
] as const;
