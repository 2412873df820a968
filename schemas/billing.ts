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

export const billingSchemas = [CreditBalanceInput, BalanceCredited];
