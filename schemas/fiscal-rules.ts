import type { FromSchema } from 'json-schema-to-ts';
import { RULE_KEY_PATTERN } from '../domain/ledger/index.js';

/**
 * Text that goes into a FEC field: no separator (tab or pipe), no line break (article A47 A-1 I 4°),
 * and not blank. The pattern is linear: the leading blanks and the first visible character are
 * disjoint classes, so a long refused string is not retried from every split (ajv runs `pattern`
 * even on strings over `maxLength`).
 */
const fecText = (description: string) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength: 100,
    pattern: '^[^\\S\\t\\r\\n]*[^\\s|][^\\t\\r\\n|]*$',
    description,
  }) as const;

const journal = (description: string) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['code', 'label'],
    description,
    properties: {
      code: { type: 'string', pattern: '^[A-Z0-9]{1,10}$', description: 'JournalCode: capitals and digits.' },
      label: fecText('JournalLib.'),
    },
  }) as const;

const account = (description: string) =>
  ({
    type: 'object',
    additionalProperties: false,
    required: ['number', 'label'],
    description,
    properties: {
      number: {
        type: 'string',
        pattern: '^[0-9]{3}[0-9A-Z]{0,17}$',
        description: 'CompteNum: its first three characters are digits of the plan comptable général.',
      },
      label: fecText('CompteLib.'),
    },
  }) as const;

export const FecJournalsRuleValue = {
  $id: 'FecJournalsRuleValue',
  type: 'object',
  description: 'Value of the `fec.journals` rule: the journal of each kind of entry.',
  additionalProperties: false,
  required: ['sales', 'purchases', 'bank'],
  properties: {
    sales: journal('Outgoing invoices and their credit notes (VT by default).'),
    purchases: journal('Incoming (supplier) invoices and their credit notes (AC by default).'),
    bank: journal('Payments (BQ by default).'),
  },
} as const;
export type FecJournalsRuleValue = FromSchema<typeof FecJournalsRuleValue>;

export const FecAccountsRuleValue = {
  $id: 'FecAccountsRuleValue',
  type: 'object',
  description: 'Value of the `fec.accounts` rule: the account each posting uses.',
  additionalProperties: false,
  required: ['customers', 'revenue', 'vat_collected', 'bank', 'suppliers', 'purchases', 'vat_deductible'],
  properties: {
    customers: account('Customers, debited with the total including VAT (411).'),
    revenue: account('Revenue, credited with the total excluding VAT (706).'),
    vat_collected: account('VAT collected, credited per rate (44571).'),
    bank: account('Bank, debited with payments received (512).'),
    suppliers: account('Suppliers, credited with incoming invoices including VAT (401).'),
    purchases: account('Purchases, debited with incoming invoices excluding VAT (607).'),
    vat_deductible: account('Deductible VAT on incoming invoices (44566).'),
  },
} as const;
export type FecAccountsRuleValue = FromSchema<typeof FecAccountsRuleValue>;

export const VatRoundingRuleValue = {
  $id: 'VatRoundingRuleValue',
  type: 'object',
  description: 'Value of the `vat.rounding` rule: how VAT is recomputed when rules are replayed.',
  additionalProperties: false,
  required: ['mode'],
  properties: {
    mode: {
      type: 'string',
      enum: ['per_rate', 'per_line'],
      description: 'per_rate: taxable amount × rate, rounded once per rate (EN 16931 BT-117); per_line: line by line.',
    },
  },
} as const;
export type VatRoundingRuleValue = FromSchema<typeof VatRoundingRuleValue>;

const ruleRef = {
  type: 'string',
  minLength: 1,
  maxLength: 200,
  description: 'The rule’s key, such as `fec.accounts`.',
} as const;

const ruleValue = {
  not: { type: 'null' },
  description:
    'The value, any JSON but null. Keys the service uses (fec.journals, fec.accounts, vat.rounding) must match their schema.',
} as const;

const ruleDescription = {
  type: 'string',
  minLength: 1,
  maxLength: 1000,
  pattern: '\\S',
  description: 'What the rule says, for people.',
} as const;

const effectiveFrom = {
  type: 'string',
  format: 'date',
  description: 'First day (YYYY-MM-DD) the version applies to; it applies until a version with a later date.',
} as const;

export const FiscalRulesInput = {
  $id: 'FiscalRulesInput',
  type: 'object',
  description: 'Which day the rules are read for.',
  additionalProperties: false,
  properties: {
    date: { type: 'string', format: 'date', description: 'The rules in force on this day (default: today, Paris).' },
  },
} as const;
export type FiscalRulesInput = FromSchema<typeof FiscalRulesInput>;

export const FiscalRuleInput = {
  $id: 'FiscalRuleInput',
  type: 'object',
  description: 'One rule, as in force on a day.',
  additionalProperties: false,
  required: ['rule'],
  properties: {
    rule: ruleRef,
    date: { type: 'string', format: 'date', description: 'The version in force on this day (default: today).' },
  },
} as const;
export type FiscalRuleInput = FromSchema<typeof FiscalRuleInput>;

export const FiscalRuleHistoryInput = {
  $id: 'FiscalRuleHistoryInput',
  type: 'object',
  description: 'Every version of one rule.',
  additionalProperties: false,
  required: ['rule'],
  properties: { rule: ruleRef },
} as const;
export type FiscalRuleHistoryInput = FromSchema<typeof FiscalRuleHistoryInput>;

export const CreateFiscalRuleInput = {
  $id: 'CreateFiscalRuleInput',
  type: 'object',
  description: 'A new rule key with its first version.',
  additionalProperties: false,
  required: ['key', 'value', 'description', 'effective_from'],
  properties: {
    key: {
      type: 'string',
      pattern: RULE_KEY_PATTERN,
      description: '`namespace.name` in lower case (one to three dots), such as `custom.payment_terms`.',
    },
    value: ruleValue,
    description: ruleDescription,
    effective_from: effectiveFrom,
  },
} as const;
export type CreateFiscalRuleInput = FromSchema<typeof CreateFiscalRuleInput>;

export const UpdateFiscalRuleInput = {
  $id: 'UpdateFiscalRuleInput',
  type: 'object',
  description: 'A new version of a rule; the versions before it are kept unchanged.',
  additionalProperties: false,
  required: ['rule', 'value', 'effective_from'],
  properties: {
    rule: {
      type: 'string',
      minLength: 1,
      maxLength: 200,
      description: 'The id of any version of the rule (or its key).',
    },
    value: ruleValue,
    description: { ...ruleDescription, description: 'What the new version says (default: the version named).' },
    effective_from: effectiveFrom,
  },
} as const;
export type UpdateFiscalRuleInput = FromSchema<typeof UpdateFiscalRuleInput>;

export const FiscalRule = {
  $id: 'FiscalRule',
  type: 'object',
  description: 'One version of a fiscal rule.',
  additionalProperties: false,
  required: [
    'id',
    'key',
    'version',
    'value',
    'description',
    'effective_from',
    'source',
    'in_force',
    'created_at',
    'created_by',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Version id (PUT /v1/tenant/fiscal/rules/{id} takes it).' },
    key: { type: 'string', description: 'The rule’s key.' },
    version: { type: 'integer', description: 'Version number of the key, from 1 (the built-in one, if any).' },
    value: { description: 'The value.' },
    description: { type: 'string', description: 'What it says.' },
    effective_from: { type: 'string', format: 'date', description: 'First day it applies to.' },
    source: {
      type: 'string',
      enum: ['default', 'tenant'],
      description: 'default: built into the service, shared by every tenant; tenant: yours.',
    },
    in_force: { type: 'boolean', description: 'The version in force on the day asked for (today by default).' },
    created_at: { type: 'string', format: 'date-time', description: 'When it was recorded.' },
    created_by: {
      type: ['object', 'null'],
      description: 'The credential that recorded it (kind and id, never a secret); null for built-in rules.',
      additionalProperties: { type: ['string', 'null'] },
    },
  },
} as const;
export type FiscalRule = FromSchema<typeof FiscalRule>;

export const FiscalRuleList = {
  $id: 'FiscalRuleList',
  type: 'array',
  description: 'Fiscal rules, one version each.',
  items: { $ref: 'FiscalRule' },
} as const;

export const FiscalRulesExport = {
  $id: 'FiscalRulesExport',
  type: 'object',
  description: 'Every version of every rule of the key’s environment, as a JSON download.',
  additionalProperties: false,
  required: ['exported_at', 'tenant_id', 'environment', 'rules'],
  properties: {
    exported_at: { type: 'string', format: 'date-time', description: 'When the export was made.' },
    tenant_id: { type: 'string', format: 'uuid', description: 'Whose rules.' },
    environment: { type: 'string', enum: ['sandbox', 'production'], description: 'Which environment.' },
    rules: {
      type: 'array',
      items: { $ref: 'FiscalRule' },
      description: 'Every version, by key then version.',
    },
  },
} as const;

export const fiscalRuleValueSchemas = [FecJournalsRuleValue, FecAccountsRuleValue, VatRoundingRuleValue] as const;

export const fiscalRuleSchemas = [
  ...fiscalRuleValueSchemas,
  FiscalRulesInput,
  FiscalRuleInput,
  FiscalRuleHistoryInput,
  CreateFiscalRuleInput,
  UpdateFiscalRuleInput,
  FiscalRule,
  FiscalRuleList,
  FiscalRulesExport,
] as const;
