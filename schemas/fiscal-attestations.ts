import type { FromSchema } from 'json-schema-to-ts';

const chainChoice = {
  sub_tenant_id: {
    type: 'string',
    format: 'uuid',
    description: "A sub-tenant's chain (the sub-tenant is then the user named); the tenant's own chain when left out.",
  },
  environment: {
    type: 'string',
    enum: ['sandbox', 'production'],
    description: "Must be the key's own environment, which is the default.",
  },
} as const;

export const FiscalAttestationInput = {
  $id: 'FiscalAttestationInput',
  type: 'object',
  description: 'The year and the chain of a yearly attestation.',
  additionalProperties: false,
  required: ['year'],
  properties: {
    year: {
      type: 'integer',
      minimum: 2000,
      maximum: 2100,
      description: 'Calendar year (the fiscal year), not after the current one.',
    },
    ...chainChoice,
  },
} as const;
export type FiscalAttestationInput = FromSchema<typeof FiscalAttestationInput>;

export const IscaDocumentInput = {
  $id: 'IscaDocumentInput',
  type: 'object',
  description: 'The chain an ISCA document is about.',
  additionalProperties: false,
  properties: { ...chainChoice },
} as const;
export type IscaDocumentInput = FromSchema<typeof IscaDocumentInput>;

const text = (description: string) => ({ type: 'string', description }) as const;
const nullableText = (description: string) => ({ type: ['string', 'null'], description }) as const;
const nullableInt = (description: string) => ({ type: ['integer', 'null'], description }) as const;

const anchor = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['id', 'status', 'verified', 'anchored_at', 'anchor_reference', 'tsa_name'],
  description: "The closing's RFC 3161 anchor, or null.",
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Anchor id.' },
    status: { type: 'string', enum: ['pending', 'anchored', 'failed'], description: 'Its state.' },
    verified: { type: 'boolean', description: 'The token verified against the closing hash.' },
    anchored_at: { type: ['string', 'null'], format: 'date-time', description: 'The time-stamp (genTime).' },
    anchor_reference: nullableText('The authority’s serial number of the time-stamp.'),
    tsa_name: nullableText('The time-stamp authority.'),
  },
} as const;

const closing = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['id', 'type', 'period_start', 'period_end', 'closing_hash', 'closed_at', 'entries_count', 'anchor'],
  description: 'A closing with its anchor, or null.',
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Closing id.' },
    type: { type: 'string', enum: ['daily', 'monthly', 'yearly'], description: 'Closing type.' },
    period_start: { type: 'string', format: 'date', description: 'First day closed.' },
    period_end: { type: 'string', format: 'date', description: 'Last day closed.' },
    closing_hash: text('Its SHA-256 seal.'),
    closed_at: { type: 'string', format: 'date-time', description: 'When it was made.' },
    entries_count: { type: 'integer', description: 'Entries it covers.' },
    fiscal_year_totals: { type: 'object', description: 'Fiscal-year cumulative totals as of this closing.' },
    anchor,
  },
} as const;

export const FiscalAttestation = {
  $id: 'FiscalAttestation',
  type: 'object',
  description:
    "The publisher's individual attestation (attestation individuelle) for one user's fiscal chain: a technical self-declaration following the administration's model (BOI-TVA-DECLA-30-10-30), not a certificate, with the chain's facts as the software reads them now.",
  additionalProperties: false,
  required: [
    'kind',
    'year',
    'generated_at',
    'environment',
    'publisher',
    'software',
    'user',
    'platform',
    'chain',
    'closings',
    'integrity',
    'declaration',
  ],
  properties: {
    kind: { type: 'string', enum: ['attestation_individuelle'], description: 'What this document is.' },
    year: nullableInt('The calendar year attested; null for the whole chain (the ISCA self-attestation).'),
    generated_at: { type: 'string', format: 'date-time', description: 'When it was drawn up.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Sandbox chains hold test entries.' },
    publisher: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'siren', 'address', 'signatory', 'contact', 'configured'],
      description: 'The publisher (éditeur) making the declaration, from the PUBLISHER_* settings.',
      properties: {
        name: nullableText('Legal name.'),
        siren: nullableText('SIREN.'),
        address: nullableText('Registered address.'),
        signatory: nullableText('Who signs: name and capacity.'),
        contact: nullableText('E-mail or URL.'),
        configured: { type: 'boolean', description: 'False when PUBLISHER_NAME is not set.' },
      },
    },
    software: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'version'],
      description: 'The software and the version that keeps the chain.',
      properties: { name: text('Software name.'), version: text('Version (package.json).') },
    },
    user: {
      type: 'object',
      additionalProperties: false,
      required: ['type', 'id', 'name', 'legal_name', 'siret', 'siren'],
      description: 'The user of the software whose chain is attested: the tenant, or one of its sub-tenants.',
      properties: {
        type: { type: 'string', enum: ['tenant', 'sub_tenant'], description: 'Whose chain.' },
        id: { type: 'string', format: 'uuid', description: 'Tenant or sub-tenant id.' },
        name: text('Name.'),
        legal_name: nullableText('Legal name, when recorded.'),
        siret: nullableText('SIRET.'),
        siren: nullableText('SIREN (the SIRET’s first nine digits).'),
      },
    },
    platform: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['id', 'name'],
      description: 'For a sub-tenant: the platform (tenant) it uses the software through.',
      properties: { id: { type: 'string', format: 'uuid', description: 'Tenant id.' }, name: text('Tenant name.') },
    },
    chain: {
      type: 'object',
      additionalProperties: false,
      required: [
        'sub_tenant_id',
        'period_from',
        'period_to',
        'entries_count',
        'entries_by_type',
        'first_sequence_number',
        'last_sequence_number',
        'last_chain_hash',
        'chain_length',
      ],
      description: 'The chain’s entries appended in the period (the year, or ever).',
      properties: {
        sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'The chain (null: the tenant’s own).' },
        period_from: { type: ['string', 'null'], format: 'date', description: 'First day of the period (UTC).' },
        period_to: { type: ['string', 'null'], format: 'date', description: 'Last day of the period (UTC).' },
        entries_count: { type: 'integer', description: 'Entries appended in the period.' },
        entries_by_type: {
          type: 'object',
          description: 'Those entries per entry type.',
          additionalProperties: { type: 'integer' },
        },
        first_sequence_number: nullableInt('The first of them.'),
        last_sequence_number: nullableInt('The last of them.'),
        last_chain_hash: nullableText('The chain hash of the last of them.'),
        chain_length: { type: 'integer', description: 'Entries in the whole chain today.' },
      },
    },
    closings: {
      type: 'object',
      additionalProperties: false,
      required: ['daily', 'monthly', 'yearly', 'yearly_closing', 'latest'],
      description: 'Closings of the period.',
      properties: {
        daily: { type: 'integer', description: 'Daily closings of the period.' },
        monthly: { type: 'integer', description: 'Monthly closings of the period.' },
        yearly: { type: 'integer', description: 'Yearly closings of the period.' },
        yearly_closing: { ...closing, description: 'The yearly closing of the year attested, once made.' },
        latest: { ...closing, description: 'The latest closing of the period, of any type.' },
      },
    },
    integrity: {
      type: 'object',
      additionalProperties: false,
      required: ['valid', 'checked_at', 'ran_now', 'entries_checked', 'broken_links', 'first_broken_sequence'],
      description: 'The integrity check of the chain (a recorded one of the last 24 hours, or one run now).',
      properties: {
        valid: { type: 'boolean', description: 'No break in this chain.' },
        checked_at: { type: 'string', format: 'date-time', description: 'When it ran.' },
        ran_now: { type: 'boolean', description: 'Run for this document.' },
        entries_checked: { type: 'integer', description: 'Entries it verified (every chain it walked).' },
        broken_links: { type: 'integer', description: 'Breaks in this chain.' },
        first_broken_sequence: nullableInt('The first break in this chain.'),
      },
    },
    declaration: {
      type: 'object',
      additionalProperties: false,
      required: ['language', 'reference', 'title', 'paragraphs'],
      description: 'The wording of the self-declaration.',
      properties: {
        language: { type: 'string', enum: ['fr'], description: 'French.' },
        reference: text('The administration’s model it follows.'),
        title: text('Title.'),
        paragraphs: { type: 'array', items: { type: 'string' }, description: 'The text, paragraph by paragraph.' },
      },
    },
  },
} as const;

export const FiscalDocumentPdf = {
  $id: 'FiscalDocumentPdf',
  type: 'string',
  description: 'A PDF (PDF/A-3b, A4, French): an attestation, the technical dossier or the register of measures.',
} as const;

export const fiscalAttestationSchemas = [
  FiscalAttestationInput,
  IscaDocumentInput,
  FiscalAttestation,
  FiscalDocumentPdf,
] as const;
