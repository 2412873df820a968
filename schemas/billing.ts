import type { FromSchema } from 'json-schema-to-ts';

export const CreditBalanceInput = {
  $id: 'CreditBalanceInput',
  type: 'object',
  description: "Credit a tenant's or a user's prepaid balance by hand (operator action).",
  additionalProperties: false,
  required: ['amount', 'reason'],
  properties: {
    tenant_id: { type: 'string', format: 'uuid', description: 'Tenant to credit (or give user_id).' },
    user_id: { type: 'string', format: 'uuid', description: 'User whose workspace balance to credit.' },
    amount: { type: 'number', exclusiveMinimum: 0, maximum: 1000000, description: 'EUR, at most 2 decimals.' },
    reason: { type: 'string', minLength: 1, maxLength: 500, description: 'Why, kept with the transaction.' },
  },
} as const;
export type CreditBalanceInput = FromSchema<typeof CreditBalanceInput>;

export const BalanceCredited = {
  $id: 'BalanceCredited',
  type: 'object',
  description: 'The balance after a manual credit.',
  additionalProperties: false,
  required: ['tenant_id', 'transaction_id', 'amount', 'balance', 'currency'],
  properties: {
    tenant_id: { type: 'string', format: 'uuid', description: 'The credited tenant or workspace.' },
    transaction_id: { type: 'string', format: 'uuid', description: 'The balance transaction written.' },
    amount: { type: 'number', description: 'Amount credited.' },
    balance: { type: 'number', description: 'Balance after the credit.' },
    currency: { type: 'string', description: 'ISO 4217 currency.' },
  },
} as const;
export type BalanceCredited = FromSchema<typeof BalanceCredited>;

export const Balance = {
  $id: 'Balance',
  type: 'object',
  description: 'A prepaid production balance and its alert and auto-reload settings. Sandbox is free.',
  additionalProperties: false,
  required: [
    'amount',
    'currency',
    'auto_reload_enabled',
    'auto_reload_threshold',
    'auto_reload_amount',
    'low_balance_alert_threshold',
    'critical_balance_alert_threshold',
  ],
  properties: {
    amount: { type: 'number', description: 'Available amount.' },
    currency: { type: 'string', description: 'ISO 4217 currency (EUR).' },
    auto_reload_enabled: { type: 'boolean', description: 'Top up automatically below the threshold.' },
    auto_reload_threshold: { type: ['number', 'null'], description: 'Balance under which auto-reload runs.' },
    auto_reload_amount: { type: ['number', 'null'], description: 'Amount added by an auto-reload.' },
    low_balance_alert_threshold: { type: 'number', description: 'Balance under which `balance.low` is sent.' },
    critical_balance_alert_threshold: {
      type: 'number',
      description: 'Balance under which `balance.critical` is sent.',
    },
  },
} as const;
export type Balance = FromSchema<typeof Balance>;

const threshold = (description: string) =>
  ({ type: ['number', 'null'], minimum: 0, maximum: 1000000, description }) as const;

export const UpdateBalanceSettingsInput = {
  $id: 'UpdateBalanceSettingsInput',
  type: 'object',
  description: 'Alert and auto-reload settings; fields left out keep their value.',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    auto_reload_enabled: { type: 'boolean', description: 'Top up automatically below the threshold.' },
    auto_reload_threshold: threshold('Balance under which auto-reload runs (EUR).'),
    auto_reload_amount: {
      type: ['number', 'null'],
      minimum: 10,
      maximum: 1000000,
      description: 'Amount of an auto-reload (EUR, at least 10).',
    },
    low_balance_alert_threshold: {
      type: 'number',
      minimum: 0,
      maximum: 1000000,
      description: 'Low-balance alert threshold (EUR).',
    },
    critical_balance_alert_threshold: {
      type: 'number',
      minimum: 0,
      maximum: 1000000,
      description: 'Critical-balance alert threshold (EUR), at most the low one.',
    },
  },
} as const;
export type UpdateBalanceSettingsInput = FromSchema<typeof UpdateBalanceSettingsInput>;

export const billingSchemas = [CreditBalanceInput, BalanceCredited, Balance, UpdateBalanceSettingsInput];
