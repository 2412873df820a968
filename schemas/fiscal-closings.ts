import type { FromSchema } from 'json-schema-to-ts';
import { pageParams } from './common.js';

const money = (description: string) => ({ type: 'string', pattern: '^-?\\d+\\.\\d{2}$', description }) as const;
const count = (description: string) => ({ type: 'integer', minimum: 0, description }) as const;
const hash = (description: string) => ({ type: 'string', pattern: '^[0-9a-f]{64}$', description }) as const;
const subTenant = {
  type: 'string',
  format: 'uuid',
  description: "One sub-tenant's chain; the key's own chains when left out.",
} as const;
const environment = {
  type: 'string',
  enum: ['sandbox', 'production'],
  description: "Must be the key's own environment.",
} as const;

const amountProperties = {
  invoices_count: count('Outgoing invoices recorded.'),
  invoices_ht: money('Their total excluding VAT.'),
  invoices_tax: money('Their VAT.'),
  invoices_ttc: money('Their total including VAT.'),
  credit_notes_count: count('Credit notes recorded.'),
  credit_notes_ht: money('Their total excluding VAT (positive).'),
  credit_notes_tax: money('Their VAT (positive).'),
  credit_notes_ttc: money('Their total including VAT (positive).'),
  net_ht: money('Invoices less credit notes, excluding VAT.'),
  net_tax: money('Invoices less credit notes, VAT.'),
  net_ttc: money('Invoices less credit notes, including VAT.'),
  payments_count: count('Payments recorded.'),
  payments_amount: money('Their total.'),
} as const;
/** The names above, typed as such (Object.keys gives `string[]`, which FromSchema cannot read as `required`). */
const amountNames = Object.keys(amountProperties) as (keyof typeof amountProperties)[];

export const ClosingAmounts = {
  $id: 'ClosingAmounts',
  type: 'object',
  description: 'Counts and amounts of one currency (two decimals, as strings).',
  additionalProperties: false,
  required: amountNames,
  properties: amountProperties,
} as const;

export const ClosingTotals = {
  $id: 'ClosingTotals',
  type: 'object',
  description:
    'Totals in euros (spec: `invoices_ht`, `credit_notes_ht`, `net_ht`, with VAT and TTC); entries in another currency are totalled apart, never converted.',
  additionalProperties: false,
  required: ['currency', ...amountNames, 'other_currencies'],
  properties: {
    currency: { type: 'string', enum: ['EUR'], description: 'The currency of the amounts above: EUR.' },
    ...amountProperties,
    other_currencies: {
      type: 'object',
      description: 'The same, per other ISO 4217 currency met in the period (usually empty).',
      additionalProperties: { $ref: 'ClosingAmounts' },
    },
  },
} as const;

export type ClosingAmounts = FromSchema<typeof ClosingAmounts>;
export type ClosingTotals = FromSchema<typeof ClosingTotals, { references: [typeof ClosingAmounts] }>;

export const FiscalClosing = {
  $id: 'FiscalClosing',
  type: 'object',
  description:
    'A fiscal closing (spec "Fiscal records": Closing): the chain sealed up to `last_sequence_number`, the totals of the period, of the fiscal year so far and since the chain began, chained to the previous closing of its chain and type by `previous_closing_hash`, and anchored with an RFC 3161 time-stamp of `closing_hash`.',
  additionalProperties: false,
  required: [
    'id',
    'type',
    'date',
    'period_start',
    'period_end',
    'sub_tenant_id',
    'environment',
    'fiscal_year',
    'first_sequence_number',
    'last_sequence_number',
    'last_chain_hash',
    'entries_count',
    'totals',
    'fiscal_year_totals',
    'perpetual_totals',
    'previous_closing_hash',
    'closing_hash',
    'hash_version',
    'hashed_data',
    'ledger_entry_id',
    'closed_at',
    'anchor',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Closing id.' },
    type: { type: 'string', enum: ['daily', 'monthly', 'yearly'], description: 'Daily, monthly or yearly.' },
    date: {
      type: 'string',
      format: 'date',
      description: 'The first day of the period (the day, for a daily closing).',
    },
    period_start: { type: 'string', format: 'date', description: 'First day of the period (UTC).' },
    period_end: { type: 'string', format: 'date', description: 'Last day of the period (UTC).' },
    sub_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The chain: a sub-tenant, or null for the tenant’s own.',
    },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment.' },
    fiscal_year: { type: 'integer', description: 'The fiscal (calendar) year of the period.' },
    first_sequence_number: {
      type: ['integer', 'null'],
      description: 'First entry covered; null when the period added no entry.',
    },
    last_sequence_number: {
      type: 'integer',
      description: 'The chain’s last entry when the period ended: everything up to it is sealed.',
    },
    last_chain_hash: hash('The chain hash of that entry.'),
    entries_count: count('Entries covered (closing entries of earlier periods included).'),
    totals: { $ref: 'ClosingTotals', description: 'Totals of the entries covered.' },
    fiscal_year_totals: {
      $ref: 'ClosingTotals',
      description: 'Cumulative totals of the fiscal year, this period included.',
    },
    perpetual_totals: { $ref: 'ClosingTotals', description: 'Cumulative totals since the chain began (never reset).' },
    previous_closing_hash: hash(
      'The closing hash of the previous closing of this chain and type (64 zeros for the first).',
    ),
    closing_hash: hash('SHA-256 (hex) of `hashed_data`.'),
    hash_version: { type: 'integer', description: 'Version of the hashed field list.' },
    hashed_data: {
      type: 'string',
      description: 'The exact RFC 8785 canonical JSON that was hashed: recompute SHA-256 over it to check.',
    },
    ledger_entry_id: { type: 'string', format: 'uuid', description: 'The `closing` entry recording it on the chain.' },
    closed_at: { type: 'string', format: 'date-time', description: 'When it was made.' },
    anchor: {
      type: ['object', 'null'],
      description: 'Its RFC 3161 anchor (see GET /v1/tenant/fiscal/anchors).',
      additionalProperties: false,
      required: ['id', 'status', 'verified', 'anchored_at'],
      properties: {
        id: { type: 'string', format: 'uuid', description: 'Anchor id.' },
        status: { type: 'string', enum: ['pending', 'anchored', 'failed'], description: 'Where it stands.' },
        verified: { type: 'boolean', description: 'The token verified against `closing_hash`.' },
        anchored_at: { type: ['string', 'null'], format: 'date-time', description: 'The TSA’s time (genTime).' },
      },
    },
  },
} as const;

export const PerformDailyClosingInput = {
  $id: 'PerformDailyClosingInput',
  type: 'object',
  description: 'Which day and chain to close.',
  additionalProperties: false,
  properties: {
    date: {
      type: 'string',
      format: 'date',
      description: 'The UTC day to close, before today (default: yesterday). Earlier unclosed days are closed first.',
    },
    sub_tenant_id: { ...subTenant, description: "A sub-tenant's chain; the tenant's own chain when left out." },
    environment,
  },
} as const;
export type PerformDailyClosingInput = FromSchema<typeof PerformDailyClosingInput>;

export const FiscalClosingsInput = {
  $id: 'FiscalClosingsInput',
  type: 'object',
  description: 'Filters of the closings list.',
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: ['daily', 'monthly', 'yearly'], description: 'Closing type.' },
    date_from: { type: 'string', format: 'date', description: 'Periods starting on or after this day.' },
    date_to: { type: 'string', format: 'date', description: 'Periods starting on or before this day.' },
    environment,
    sub_tenant_id: subTenant,
    ...pageParams(20, 100),
  },
} as const;
export type FiscalClosingsInput = FromSchema<typeof FiscalClosingsInput>;

export const FiscalClosingsPage = {
  $id: 'FiscalClosingsPage',
  type: 'object',
  description: 'A page of closings, newest period first (spec: `{success, data, meta}`).',
  additionalProperties: false,
  required: ['success', 'data', 'meta'],
  properties: {
    success: { type: 'boolean', description: 'Always true on a 200.' },
    data: { type: 'array', items: { $ref: 'FiscalClosing' }, description: 'The closings of this page.' },
    meta: { $ref: 'PageMeta', description: 'Pagination.' },
  },
} as const;

export const CloseFiscalChainInput = {
  $id: 'CloseFiscalChainInput',
  type: 'object',
  description: 'A chain and the last day to close (workers only).',
  additionalProperties: false,
  required: ['tenant_id', 'environment', 'sub_tenant_id', 'date'],
  properties: {
    tenant_id: { type: 'string', format: 'uuid', description: 'The chain’s tenant.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'The chain’s environment.' },
    sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'The chain’s sub-tenant, or null.' },
    date: {
      type: 'string',
      format: 'date',
      description: 'Close days up to this one, and the months and years it ends.',
    },
  },
} as const;
export type CloseFiscalChainInput = FromSchema<typeof CloseFiscalChainInput>;

export const CloseFiscalChainResult = {
  $id: 'CloseFiscalChainResult',
  type: 'object',
  description: 'The closings a run made.',
  additionalProperties: false,
  required: ['daily', 'monthly', 'yearly'],
  properties: {
    daily: count('Daily closings made.'),
    monthly: count('Monthly closings made.'),
    yearly: count('Yearly closings made.'),
  },
} as const;
export type CloseFiscalChainResult = FromSchema<typeof CloseFiscalChainResult>;

export const ScheduleFiscalClosingsResult = {
  $id: 'ScheduleFiscalClosingsResult',
  type: 'object',
  description: 'What the closing schedule queued.',
  additionalProperties: false,
  required: ['date', 'chains', 'anchors_requeued'],
  properties: {
    date: { type: 'string', format: 'date', description: 'The last day to close (yesterday, UTC).' },
    chains: count('Chains with a closing due, one job each.'),
    anchors_requeued: count('Anchors still pending after their retries, queued again.'),
  },
} as const;

export const fiscalClosingSchemas = [
  ClosingAmounts,
  ClosingTotals,
  FiscalClosing,
  PerformDailyClosingInput,
  FiscalClosingsInput,
  FiscalClosingsPage,
  CloseFiscalChainInput,
  CloseFiscalChainResult,
  ScheduleFiscalClosingsResult,
] as const;
