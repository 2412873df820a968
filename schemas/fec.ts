import type { FromSchema } from 'json-schema-to-ts';

const subTenant = {
  type: 'string',
  format: 'uuid',
  description: "A sub-tenant's chain; the tenant's own chain when left out (a key bound to a sub-tenant: its own).",
} as const;

export const FecExportInput = {
  $id: 'FecExportInput',
  type: 'object',
  description: 'The period and chain of a FEC (fichier des écritures comptables, article A47 A-1 LPF).',
  additionalProperties: false,
  required: ['year'],
  properties: {
    year: { type: 'integer', minimum: 2000, maximum: 2100, description: 'Calendar year, 2000 to 2100.' },
    month: {
      type: 'integer',
      minimum: 1,
      maximum: 12,
      description: 'One month of the year (1-12); the whole year when left out.',
    },
    sub_tenant_id: subTenant,
    environment: {
      type: 'string',
      enum: ['sandbox', 'production'],
      description: "Must be the key's own environment (the default).",
    },
    format: {
      type: 'string',
      enum: ['tab', 'pipe'],
      default: 'tab',
      description: 'Field separator: tab (default) or pipe (|).',
    },
  },
} as const;
export type FecExportInput = FromSchema<typeof FecExportInput>;

export const FecFile = {
  $id: 'FecFile',
  type: 'string',
  description:
    'The FEC as UTF-8 text: a header line with the 18 fields of article A47 A-1 in their legal order, then one line per posting, CRLF line ends, dates YYYYMMDD, amounts with a decimal comma. Named <SIREN>FEC<YYYYMMDD>.txt in Content-Disposition.',
} as const;

export const ReplayFiscalRulesInput = {
  $id: 'ReplayFiscalRulesInput',
  type: 'object',
  description: 'Which entries to replay under the rules in force on their dates.',
  additionalProperties: false,
  properties: {
    date_from: { type: 'string', format: 'date', description: 'Entries with a fiscal date on or after.' },
    date_to: { type: 'string', format: 'date', description: 'Entries with a fiscal date on or before.' },
    sub_tenant_id: {
      type: 'string',
      format: 'uuid',
      description: "One sub-tenant's chain; every chain of the tenant when left out.",
    },
    details: {
      type: 'boolean',
      default: false,
      description: 'Also list each entry with its rule versions and recomputed postings (the first 500).',
    },
  },
} as const;
export type ReplayFiscalRulesInput = FromSchema<typeof ReplayFiscalRulesInput>;

const appliedRule = {
  type: 'object',
  additionalProperties: false,
  required: ['key', 'version', 'id', 'source'],
  description: 'A rule version applied.',
  properties: {
    key: { type: 'string', description: 'Rule key.' },
    version: { type: 'integer', description: 'Version number.' },
    id: { type: 'string', format: 'uuid', description: 'Version id.' },
    source: { type: 'string', enum: ['default', 'tenant'], description: 'Built-in or the tenant’s.' },
  },
} as const;

const entryRef = {
  entry_id: { type: 'string', format: 'uuid', description: 'The ledger entry.' },
  sequence_number: { type: 'integer', description: 'Its place in its chain.' },
  sub_tenant_id: { type: ['string', 'null'], format: 'uuid', description: 'Its chain (null: the tenant’s own).' },
  fiscal_date: { type: 'string', format: 'date', description: 'Its fiscal date.' },
} as const;

const difference = {
  type: 'object',
  additionalProperties: false,
  required: ['entry_id', 'sequence_number', 'sub_tenant_id', 'fiscal_date', 'field', 'recorded', 'recomputed', 'rule'],
  description: 'A figure recomputed under the rules that differs from the one recorded.',
  properties: {
    ...entryRef,
    field: {
      type: 'string',
      description:
        'What differs: total_tax (VAT under vat.rounding), total_ttc, invoice.total_ht|total_tax|total_ttc (the invoice row against the ledger), balance (postings).',
    },
    recorded: { type: ['string', 'null'], description: 'As recorded.' },
    recomputed: { type: ['string', 'null'], description: 'As recomputed.' },
    rule: { anyOf: [appliedRule, { type: 'null' }], description: 'The rule version behind the recomputation.' },
  },
} as const;

const posting = {
  type: 'object',
  additionalProperties: false,
  required: ['journal_code', 'account', 'auxiliary_account', 'debit', 'credit'],
  description: 'One FEC line the entry gives under its rules.',
  properties: {
    journal_code: { type: 'string', description: 'JournalCode.' },
    account: { type: 'string', description: 'CompteNum.' },
    auxiliary_account: { type: ['string', 'null'], description: 'CompAuxNum (customer or supplier).' },
    debit: { type: 'string', description: 'Debit, dot decimal.' },
    credit: { type: 'string', description: 'Credit, dot decimal.' },
  },
} as const;

const replayedEntry = {
  type: 'object',
  additionalProperties: false,
  required: ['entry_id', 'sequence_number', 'sub_tenant_id', 'fiscal_date', 'entry_type', 'rules', 'postings'],
  description: 'One entry as replayed.',
  properties: {
    ...entryRef,
    entry_type: { type: 'string', description: 'invoice_created, credit_note_issued or payment.' },
    rules: { type: 'array', items: appliedRule, description: 'The rule versions in force on its date.' },
    postings: { type: 'array', items: posting, description: 'Its FEC lines under those rules.' },
  },
} as const;

export const FiscalRulesReplay = {
  $id: 'FiscalRulesReplay',
  type: 'object',
  description:
    'Derived figures of existing entries recomputed under the rules in force on each entry’s date. Nothing is written: the chain is untouched.',
  additionalProperties: false,
  required: ['entries_replayed', 'chains_replayed', 'replayed_at', 'rules_applied', 'differences_count', 'differences'],
  properties: {
    entries_replayed: { type: 'integer', description: 'Entries recomputed (closings carry no figures to replay).' },
    chains_replayed: { type: 'integer', description: 'Chains they belong to.' },
    replayed_at: { type: 'string', format: 'date-time', description: 'When.' },
    rules_applied: {
      type: 'array',
      description: 'Each rule version used, with how many entries it applied to.',
      items: {
        ...appliedRule,
        required: [...appliedRule.required, 'entries'],
        properties: {
          ...appliedRule.properties,
          entries: { type: 'integer', description: 'Entries it applied to.' },
        },
      },
    },
    differences_count: { type: 'integer', description: 'Differences found (all of them).' },
    differences: { type: 'array', items: difference, description: 'The first 1000 differences.' },
    entries: { type: 'array', items: replayedEntry, description: 'With details=true: the first 500 entries.' },
  },
} as const;
export type FiscalRulesReplay = FromSchema<typeof FiscalRulesReplay>;

export const fecSchemas = [FecExportInput, FecFile, ReplayFiscalRulesInput, FiscalRulesReplay] as const;
