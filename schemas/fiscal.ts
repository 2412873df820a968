import type { FromSchema } from 'json-schema-to-ts';
import { type PageMeta, pageOf, pageParams } from './common.js';

const subTenantFilter = {
  type: 'string',
  format: 'uuid',
  description: "One sub-tenant's chain; every chain of the tenant (its own and its sub-tenants') when left out.",
} as const;

export const FiscalIntegrityInput = {
  $id: 'FiscalIntegrityInput',
  type: 'object',
  description:
    'Which chains to verify, and optionally which days to report on (the chains are still walked from their first entry).',
  additionalProperties: false,
  properties: {
    sub_tenant_id: subTenantFilter,
    date_from: { type: 'string', format: 'date', description: 'First day to report on, YYYY-MM-DD (UTC).' },
    date_to: { type: 'string', format: 'date', description: 'Last day to report on, YYYY-MM-DD (UTC).' },
  },
} as const;
export type FiscalIntegrityInput = FromSchema<typeof FiscalIntegrityInput>;

export const FiscalIntegrityDateInput = {
  $id: 'FiscalIntegrityDateInput',
  type: 'object',
  description: 'The UTC day whose entries to report on (the chains are still walked from their first entry).',
  additionalProperties: false,
  required: ['date'],
  properties: {
    date: { type: 'string', format: 'date', description: 'Day, YYYY-MM-DD (UTC).' },
    sub_tenant_id: subTenantFilter,
  },
} as const;
export type FiscalIntegrityDateInput = FromSchema<typeof FiscalIntegrityDateInput>;

const brokenLink = {
  type: 'object',
  additionalProperties: false,
  required: ['sequence_number', 'reason', 'detail', 'sub_tenant_id'],
  description: 'One break, at its sequence number.',
  properties: {
    sequence_number: { type: 'integer', description: 'Where the chain breaks.' },
    reason: {
      type: 'string',
      enum: [
        'sequence_gap',
        'sequence_duplicate',
        'data_altered',
        'data_hash_mismatch',
        'previous_hash_mismatch',
        'chain_hash_mismatch',
        'closing_hash_mismatch',
        'closing_altered',
        'closing_link_mismatch',
        'closing_range_mismatch',
        'closing_seal_mismatch',
        'closing_totals_mismatch',
        'closing_entry_mismatch',
        'anchor_mismatch',
      ],
      description:
        'What does not hold there. `closing_*` and `anchor_mismatch` come from a closing (named by `closing_id`) and are reported at the first entry it covers.',
    },
    detail: { type: 'string', description: 'The same, in words.' },
    closing_id: {
      type: 'string',
      format: 'uuid',
      description: 'The closing that no longer holds, for closing breaks.',
    },
    sub_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The chain: a sub-tenant, or null for the tenant’s own.',
    },
  },
} as const;

export const FiscalIntegrityReport = {
  $id: 'FiscalIntegrityReport',
  type: 'object',
  description:
    'The outcome of recomputing every hash and link from the stored bytes (spec "Fiscal records": Integrity).',
  additionalProperties: false,
  required: [
    'valid',
    'chains_checked',
    'entries_checked',
    'first_entry',
    'last_entry',
    'closings_checked',
    'anchors_checked',
    'broken_links',
    'checked_at',
  ],
  properties: {
    valid: { type: 'boolean', description: 'No break anywhere.' },
    chains_checked: { type: 'integer', description: 'Chains walked.' },
    entries_checked: { type: 'integer', description: 'Entries verified.' },
    first_entry: { type: ['integer', 'null'], description: 'Lowest sequence number verified.' },
    last_entry: { type: ['integer', 'null'], description: 'Highest sequence number verified.' },
    closings_checked: { type: 'integer', description: 'Closings verified (seal, link, hash, closing entry).' },
    anchors_checked: { type: 'integer', description: 'RFC 3161 anchors whose token was verified again.' },
    broken_links: { type: 'array', items: brokenLink, description: 'Every break, in chain order; empty when valid.' },
    checked_at: { type: 'string', format: 'date-time', description: 'When the check ran (it is recorded).' },
  },
} as const;
export type FiscalIntegrityReport = FromSchema<typeof FiscalIntegrityReport>;

export const FiscalIntegrityHistoryInput = {
  $id: 'FiscalIntegrityHistoryInput',
  type: 'object',
  description: 'A page of recorded checks, newest first.',
  additionalProperties: false,
  properties: { ...pageParams(20, 100) },
} as const;
export type FiscalIntegrityHistoryInput = FromSchema<typeof FiscalIntegrityHistoryInput>;

export const FiscalIntegrityCheck = {
  $id: 'FiscalIntegrityCheck',
  type: 'object',
  description: 'A recorded integrity check.',
  additionalProperties: false,
  required: [
    'id',
    'valid',
    'sub_tenant_id',
    'date',
    'date_to',
    'chains_checked',
    'entries_checked',
    'first_entry',
    'last_entry',
    'first_broken_sequence',
    'checked_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Check id.' },
    valid: { type: 'boolean', description: 'Outcome.' },
    sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'The chain checked, or null for all.' },
    date: {
      type: ['string', 'null'],
      format: 'date',
      description: 'The (first) day reported on, or null for whole chains.',
    },
    date_to: {
      type: ['string', 'null'],
      format: 'date',
      description: 'The last day reported on (the same as `date` for one day), or null for whole chains.',
    },
    chains_checked: { type: 'integer', description: 'Chains walked.' },
    entries_checked: { type: 'integer', description: 'Entries verified.' },
    first_entry: { type: ['integer', 'null'], description: 'Lowest sequence number verified.' },
    last_entry: { type: ['integer', 'null'], description: 'Highest sequence number verified.' },
    first_broken_sequence: { type: ['integer', 'null'], description: 'The first break, if any.' },
    checked_at: { type: 'string', format: 'date-time', description: 'When it ran.' },
  },
} as const;

export const FiscalIntegrityHistory = pageOf(
  'FiscalIntegrityHistory',
  'FiscalIntegrityCheck',
  'Recorded integrity checks.',
);
export type FiscalIntegrityHistory = FromSchema<
  typeof FiscalIntegrityHistory,
  { references: [typeof FiscalIntegrityCheck, typeof PageMeta] }
>;

export const KillSwitchStatus = {
  $id: 'KillSwitchStatus',
  type: 'object',
  description: 'The fiscal kill switch of the key’s environment (spec "Fiscal records": Kill switch).',
  additionalProperties: false,
  required: ['active', 'activated_at', 'activated_by', 'reason'],
  properties: {
    active: { type: 'boolean', description: 'While true, invoice and credit-note creation answers 503.' },
    activated_at: { type: ['string', 'null'], format: 'date-time', description: 'When it was turned on.' },
    activated_by: {
      type: ['object', 'null'],
      description: 'The credential that turned it on (kind and key id, never the key).',
      additionalProperties: { type: ['string', 'null'] },
    },
    reason: { type: ['string', 'null'], description: 'Why it was turned on.' },
  },
} as const;

export const ActivateKillSwitchInput = {
  $id: 'ActivateKillSwitchInput',
  type: 'object',
  description: 'Why creation must stop.',
  additionalProperties: false,
  required: ['reason'],
  properties: {
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      pattern: '\\S',
      description: 'The reason, kept in the audit trail.',
    },
  },
} as const;
export type ActivateKillSwitchInput = FromSchema<typeof ActivateKillSwitchInput>;

export const DeactivateKillSwitchInput = {
  $id: 'DeactivateKillSwitchInput',
  type: 'object',
  description: 'Optionally, why creation may resume.',
  additionalProperties: false,
  properties: {
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      pattern: '\\S',
      description: 'The reason, kept in the audit trail.',
    },
  },
} as const;
export type DeactivateKillSwitchInput = FromSchema<typeof DeactivateKillSwitchInput>;

export const FiscalEntriesInput = {
  $id: 'FiscalEntriesInput',
  type: 'object',
  description: 'Filters of the fiscal entries list.',
  additionalProperties: false,
  properties: {
    date_from: { type: 'string', format: 'date', description: 'Fiscal date on or after.' },
    date_to: { type: 'string', format: 'date', description: 'Fiscal date on or before.' },
    entry_type: {
      type: 'string',
      enum: ['invoice_created', 'credit_note_issued', 'payment', 'closing'],
      description: 'Entry type.',
    },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: "Must be the key's own environment." },
    sub_tenant_id: subTenantFilter,
    ...pageParams(20, 100),
  },
} as const;
export type FiscalEntriesInput = FromSchema<typeof FiscalEntriesInput>;

export const FiscalEntry = {
  $id: 'FiscalEntry',
  type: 'object',
  description: 'A fiscal-ledger entry (spec "Fiscal records": Entry).',
  additionalProperties: false,
  required: [
    'id',
    'sequence_number',
    'entry_type',
    'entity_type',
    'entity_id',
    'fiscal_date',
    'data_hash',
    'previous_hash',
    'chain_hash',
    'legal_status',
    'sub_tenant_id',
    'environment',
    'hash_version',
    'data',
    'created_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Entry id.' },
    sequence_number: { type: 'integer', description: 'Position in its chain, from 1, without gaps.' },
    entry_type: { type: 'string', description: 'invoice_created, credit_note_issued, payment or closing.' },
    entity_type: { type: 'string', description: 'What the entry records (invoice, ...).' },
    entity_id: { type: 'string', format: 'uuid', description: 'Its id.' },
    fiscal_date: { type: 'string', format: 'date', description: 'The fiscal date (an invoice’s issue date).' },
    data_hash: { type: 'string', description: 'SHA-256 of the canonical data (RFC 8785), hex.' },
    previous_hash: { type: 'string', description: 'The chain hash of the entry before (64 zeros for the first).' },
    chain_hash: { type: 'string', description: 'SHA-256(previous_hash || data_hash), hex.' },
    legal_status: {
      type: 'string',
      enum: ['definitive', 'test'],
      description: 'definitive in production, test in sandbox.',
    },
    sub_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The chain: a sub-tenant, or null for the tenant’s own.',
    },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Environment.' },
    hash_version: { type: 'integer', description: 'Version of the hashed field list.' },
    data: { type: 'object', description: 'The hashed fields, exactly as stored.' },
    created_at: { type: 'string', format: 'date-time', description: 'When it was appended.' },
  },
} as const;

export const FiscalEntriesPage = {
  $id: 'FiscalEntriesPage',
  type: 'object',
  description: 'A page of fiscal entries, in chain order (spec: `{success, data, meta}`).',
  additionalProperties: false,
  required: ['success', 'data', 'meta'],
  properties: {
    success: { type: 'boolean', description: 'Always true on a 200.' },
    data: { type: 'array', items: { $ref: 'FiscalEntry' }, description: 'The entries of this page.' },
    meta: { $ref: 'PageMeta', description: 'Pagination.' },
  },
} as const;

export type FiscalEntriesPage = FromSchema<
  typeof FiscalEntriesPage,
  { references: [typeof FiscalEntry, typeof PageMeta] }
>;

export const fiscalSchemas = [
  FiscalEntriesInput,
  FiscalEntry,
  FiscalEntriesPage,
  KillSwitchStatus,
  ActivateKillSwitchInput,
  DeactivateKillSwitchInput,
  FiscalIntegrityInput,
  FiscalIntegrityDateInput,
  FiscalIntegrityReport,
  FiscalIntegrityHistoryInput,
  FiscalIntegrityCheck,
  FiscalIntegrityHistory,
] as const;
