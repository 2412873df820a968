import type { FromSchema } from 'json-schema-to-ts';

const environment = {
  type: 'string',
  enum: ['sandbox', 'production'],
  description: "Must be the key's own environment, which is the default (production for an sk_live_ key).",
} as const;

export const FiscalComplianceInput = {
  $id: 'FiscalComplianceInput',
  type: 'object',
  description: 'Which chains the compliance report covers.',
  additionalProperties: false,
  properties: {
    sub_tenant_id: {
      type: 'string',
      format: 'uuid',
      description: "One sub-tenant's chain; every chain of the tenant (its own and its sub-tenants') when left out.",
    },
    environment,
    verify: {
      type: 'boolean',
      default: false,
      description:
        'Run a fresh integrity check now. Otherwise the latest recorded check of the last 24 hours is used, and one is run only when there is none.',
    },
  },
} as const;
export type FiscalComplianceInput = FromSchema<typeof FiscalComplianceInput>;

const closingRef = {
  type: ['object', 'null'],
  additionalProperties: false,
  required: ['id', 'date', 'period_end', 'closed_at', 'closing_hash', 'sub_tenant_id'],
  description: 'A closing: null when the chain has none of this type.',
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Closing id.' },
    date: { type: 'string', format: 'date', description: 'First day of the period closed.' },
    period_end: { type: 'string', format: 'date', description: 'Last day of the period closed.' },
    closed_at: { type: 'string', format: 'date-time', description: 'When it was made.' },
    closing_hash: { type: 'string', description: 'Its SHA-256 seal.' },
    sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'Its chain (null: the tenant’s own).' },
  },
} as const;

const warning = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'message', 'sub_tenant_id'],
  description: 'One reason the chains are not compliant, machine-readable.',
  properties: {
    code: {
      type: 'string',
      enum: [
        'INTEGRITY_BROKEN',
        'DAILY_CLOSING_MISSING',
        'MONTHLY_CLOSING_MISSING',
        'YEARLY_CLOSING_MISSING',
        'ANCHOR_PENDING',
        'ANCHOR_FAILED',
        'KILL_SWITCH_ACTIVE',
      ],
      description: 'What is wrong.',
    },
    message: { type: 'string', description: 'The same in words, with what to do.' },
    sub_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The chain concerned (null: the tenant’s own, or the tenant as a whole).',
    },
    details: { type: 'object', description: 'Figures behind the warning (dates, counts, sequence numbers).' },
  },
} as const;

export const FiscalCompliance = {
  $id: 'FiscalCompliance',
  type: 'object',
  description:
    'Whether the fiscal chains are in order now (spec "Fiscal records": Compliance): chain verified, periods closed, closings time-stamped, kill switch off. `compliant` is false exactly when `warnings` is not empty.',
  additionalProperties: false,
  required: [
    'compliant',
    'last_integrity_check',
    'integrity_valid',
    'last_daily_closing',
    'last_monthly_closing',
    'kill_switch_active',
    'chain_length',
    'warnings',
    'environment',
    'sub_tenant_id',
    'checked_at',
    'integrity_check',
    'anchors',
    'chains',
  ],
  properties: {
    compliant: { type: 'boolean', description: 'True when there is no warning.' },
    last_integrity_check: {
      type: 'string',
      format: 'date-time',
      description: 'When the integrity check this report relies on ran.',
    },
    integrity_valid: { type: 'boolean', description: 'Its outcome for the chains in scope.' },
    last_daily_closing: { ...closingRef, description: 'The most recent daily closing of the chains in scope.' },
    last_monthly_closing: { ...closingRef, description: 'The most recent monthly closing of the chains in scope.' },
    kill_switch_active: { type: 'boolean', description: 'Whether invoice and credit-note creation is stopped.' },
    chain_length: { type: 'integer', description: 'Entries in the chains in scope (the sum of their lengths).' },
    warnings: { type: 'array', items: warning, description: 'Every reason for non-compliance; empty when compliant.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'The environment reported on.' },
    sub_tenant_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: 'The one sub-tenant reported on, or null for every chain of the tenant.',
    },
    checked_at: { type: 'string', format: 'date-time', description: 'When this report was made.' },
    integrity_check: {
      type: 'object',
      additionalProperties: false,
      required: ['checked_at', 'ran_now', 'valid', 'chains_checked', 'entries_checked', 'broken_links', 'first_broken'],
      description: 'The integrity check behind `integrity_valid`.',
      properties: {
        checked_at: { type: 'string', format: 'date-time', description: 'When it ran.' },
        ran_now: { type: 'boolean', description: 'True when it was run for this report (and recorded).' },
        valid: { type: 'boolean', description: 'No break in the chains in scope.' },
        chains_checked: { type: 'integer', description: 'Chains it walked.' },
        entries_checked: { type: 'integer', description: 'Entries it verified.' },
        broken_links: { type: 'integer', description: 'Breaks it found in the chains in scope.' },
        first_broken: {
          type: ['object', 'null'],
          additionalProperties: false,
          required: ['sequence_number', 'sub_tenant_id', 'reason'],
          description: 'The first break, or null.',
          properties: {
            sequence_number: { type: 'integer', description: 'Where the chain breaks.' },
            sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'In which chain.' },
            reason: { type: 'string', description: 'Why (as GET /fiscal/integrity reports it).' },
          },
        },
      },
    },
    anchors: {
      type: 'object',
      additionalProperties: false,
      required: ['pending', 'overdue', 'failed', 'pending_limit_hours'],
      description: 'RFC 3161 anchors of the closings in scope.',
      properties: {
        pending: { type: 'integer', description: 'Anchors still waiting for the time-stamp authority.' },
        overdue: { type: 'integer', description: 'Those pending for longer than the limit.' },
        failed: { type: 'integer', description: 'Anchors refused or whose token did not verify.' },
        pending_limit_hours: { type: 'integer', description: 'FISCAL_ANCHOR_PENDING_HOURS.' },
      },
    },
    chains: {
      type: 'array',
      description: 'Each chain in scope.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: [
          'sub_tenant_id',
          'chain_length',
          'last_chain_hash',
          'started_at',
          'last_daily_closing',
          'last_monthly_closing',
          'last_yearly_closing',
        ],
        description: 'One chain.',
        properties: {
          sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'Null: the tenant’s own chain.' },
          chain_length: { type: 'integer', description: 'Its last sequence number.' },
          last_chain_hash: { type: 'string', description: 'The chain hash of its last entry.' },
          started_at: { type: ['string', 'null'], format: 'date-time', description: 'When entry 1 was appended.' },
          last_daily_closing: { ...closingRef, description: 'Its latest daily closing.' },
          last_monthly_closing: { ...closingRef, description: 'Its latest monthly closing.' },
          last_yearly_closing: { ...closingRef, description: 'Its latest yearly closing.' },
        },
      },
    },
  },
} as const;

export const ForensicExportInput = {
  $id: 'ForensicExportInput',
  type: 'object',
  description: 'Which chains go into the forensic archive.',
  additionalProperties: false,
  properties: {
    sub_tenant_id: {
      type: 'string',
      format: 'uuid',
      description: "One sub-tenant's chain; every chain of the tenant (its own and its sub-tenants') when left out.",
    },
    environment,
  },
} as const;
export type ForensicExportInput = FromSchema<typeof ForensicExportInput>;

export const ForensicExportFile = {
  $id: 'ForensicExportFile',
  type: 'string',
  description:
    'A ZIP archive (stored, not compressed): entries.jsonl, closings.jsonl, anchors.jsonl, anchors/<id>.tsr (DER tokens), certificates/*.pem, integrity.json, manifest.json (SHA-256 of every file), VERIFY.md and verify.py (checks with standard tools only).',
} as const;

export const fiscalComplianceSchemas = [
  FiscalComplianceInput,
  FiscalCompliance,
  ForensicExportInput,
  ForensicExportFile,
] as const;
