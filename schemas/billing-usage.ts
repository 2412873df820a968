import type { FromSchema } from 'json-schema-to-ts';
import { BALANCE_TRANSACTION_TYPES, MONTH_PATTERN } from '../domain/billing/index.js';
import { pageOf, pageParams } from './common.js';

/** A tenant's usage per month and its balance's movements (GET /v1/tenant/billing/usage, …/transactions). */

const MONTH = { type: 'string', pattern: MONTH_PATTERN } as const;
const money = (description: string) => ({ type: 'number', description }) as const;

export const BillingUsageInput = {
  $id: 'BillingUsageInput',
  type: 'object',
  description: 'Which months: one given `month`, or the current month and the `months − 1` before it.',
  additionalProperties: false,
  properties: {
    month: { ...MONTH, description: 'One month, `YYYY-MM` (Europe/Paris), not after the current one.' },
    months: {
      type: 'integer',
      minimum: 1,
      maximum: 36,
      default: 12,
      description: 'How many months back from the current one, the current one included (default 12, at most 36).',
    },
  },
} as const;
export type BillingUsageInput = FromSchema<typeof BillingUsageInput>;

const kindUsage = (description: string) =>
  ({
    type: 'object',
    description,
    additionalProperties: false,
    required: ['count', 'unit_price', 'amount'],
    properties: {
      count: { type: 'integer', minimum: 0, description: 'How many, in production (sandbox is free).' },
      unit_price: money('Unit price (EUR, excluding VAT).'),
      amount: money('count × unit_price (EUR, excluding VAT), before any discount.'),
    },
  }) as const;

export const BillingUsageMonth = {
  $id: 'BillingUsageMonth',
  type: 'object',
  description:
    "One month's paid usage and what its billing invoice says (or, for the month under way, would say if it ended now).",
  additionalProperties: false,
  required: [
    'month',
    'current',
    'invoices',
    'signatures',
    'credit_notes',
    'gross_amount',
    'discount_tier',
    'discount_amount',
    'total_ht',
    'vat_rate',
    'total_vat',
    'total_ttc',
    'billing_invoice_id',
  ],
  properties: {
    month: { ...MONTH, description: 'The month, `YYYY-MM` (Europe/Paris).' },
    current: { type: 'boolean', description: 'The month under way: its figures still grow.' },
    invoices: kindUsage('Electronic invoices (0.04 EUR each).'),
    signatures: kindUsage('Signature requests (1.20 EUR each, whatever the number of signers).'),
    credit_notes: kindUsage('Credit notes (0.04 EUR each).'),
    gross_amount: money('Every kind at its unit price: what the usage debits took from the balance.'),
    discount_tier: {
      type: ['object', 'null'],
      description: 'The volume discount tier the invoice count reached; null at 1,000 invoices or fewer.',
      additionalProperties: false,
      required: ['above', 'rate'],
      properties: {
        above: { type: 'integer', description: 'The tier applies to a month of more than this many invoices.' },
        rate: { type: 'number', description: 'Discount on the electronic invoices, in percent.' },
      },
    },
    discount_amount: money('The volume discount (EUR), credited back to the balance when the month is billed.'),
    total_ht: money('Total excluding VAT: gross_amount − discount_amount.'),
    vat_rate: { type: 'number', description: 'VAT rate in percent (20).' },
    total_vat: money('VAT on total_ht.'),
    total_ttc: money('Total including VAT.'),
    billing_invoice_id: {
      type: ['string', 'null'],
      format: 'uuid',
      description: "The month's billing invoice, once issued (on the 1st of the next month).",
    },
  },
} as const;
export type BillingUsageMonth = FromSchema<typeof BillingUsageMonth>;

export const BillingUsage = {
  $id: 'BillingUsage',
  type: 'object',
  description: "The tenant's paid usage per month, newest first, with the prices and discount tiers applied.",
  additionalProperties: false,
  required: ['currency', 'months', 'discount_tiers'],
  properties: {
    currency: { type: 'string', description: 'ISO 4217 currency (EUR).' },
    months: { type: 'array', items: { $ref: 'BillingUsageMonth' }, description: 'The months asked for, newest first.' },
    discount_tiers: {
      type: 'array',
      description: 'The volume discount tiers, highest first.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['above', 'rate'],
        properties: {
          above: { type: 'integer', description: 'More than this many invoices in a month…' },
          rate: { type: 'number', description: '…gives this discount (percent) on all of them.' },
        },
      },
    },
  },
} as const;
export type BillingUsage = FromSchema<typeof BillingUsage, { references: [typeof BillingUsageMonth] }>;

export const BillingTransactionListInput = {
  $id: 'BillingTransactionListInput',
  type: 'object',
  description: "Filters and page of the balance's movements, newest first.",
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: BALANCE_TRANSACTION_TYPES, description: 'Only movements of this type.' },
    date_from: { type: 'string', format: 'date', description: 'Made on or after this day (Europe/Paris).' },
    date_to: { type: 'string', format: 'date', description: 'Made on or before this day (Europe/Paris).' },
    reference_type: {
      type: 'string',
      pattern: '^[a-z_]{1,40}$',
      description:
        'Only movements about this kind of thing (`invoice`, `credit_note`, `signature`, `billing_invoice`).',
    },
    reference_id: { type: 'string', format: 'uuid', description: 'Only movements about this invoice, credit note, …' },
    ...pageParams(25, 100),
  },
} as const;
export type BillingTransactionListInput = FromSchema<typeof BillingTransactionListInput>;

export const BillingTransaction = {
  $id: 'BillingTransaction',
  type: 'object',
  description: 'One movement of the prepaid balance, with the balance it left.',
  additionalProperties: false,
  required: [
    'id',
    'type',
    'amount',
    'balance_after',
    'currency',
    'reason',
    'reference_type',
    'reference_id',
    'created_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Id of the movement.' },
    type: {
      type: 'string',
      enum: BALANCE_TRANSACTION_TYPES,
      description:
        'What moved the balance: a paid operation (`invoice_created`, `credit_note_created`, `signature_created`), a top-up, a manual credit or debit by the operator, the monthly billing (`billing_discount` credited back, `billing_vat` debited), or the charge of a failed signature request given back (`signature_refunded`).',
    },
    amount: money('Signed: positive credits the balance, negative debits it (EUR).'),
    balance_after: money('The balance right after this movement (EUR).'),
    currency: { type: 'string', description: 'ISO 4217 currency (EUR).' },
    reason: { type: ['string', 'null'], description: 'Why, for manual and billing movements.' },
    reference_type: {
      type: ['string', 'null'],
      description: 'What the movement is about: `invoice`, `credit_note`, `signature`, `billing_invoice`.',
    },
    reference_id: { type: ['string', 'null'], format: 'uuid', description: 'Id of what it is about.' },
    created_at: { type: 'string', format: 'date-time', description: 'When the movement was made.' },
  },
} as const;
export type BillingTransaction = FromSchema<typeof BillingTransaction>;

export const BillingTransactionPage = pageOf(
  'BillingTransactionPage',
  'BillingTransaction',
  "A page of the balance's movements, newest first.",
);

export const DebitBalanceInput = {
  $id: 'DebitBalanceInput',
  type: 'object',
  description: "Debit a tenant's or a user's prepaid balance by hand (operator action), never below zero.",
  additionalProperties: false,
  required: ['amount', 'reason'],
  properties: {
    tenant_id: { type: 'string', format: 'uuid', description: 'Tenant to debit (or give user_id).' },
    user_id: { type: 'string', format: 'uuid', description: 'User whose workspace balance to debit.' },
    amount: { type: 'number', exclusiveMinimum: 0, maximum: 1000000, description: 'EUR to take, at most 2 decimals.' },
    reason: { type: 'string', minLength: 1, maxLength: 500, description: 'Why, kept with the transaction.' },
  },
} as const;
export type DebitBalanceInput = FromSchema<typeof DebitBalanceInput>;

export const BalanceDebited = {
  $id: 'BalanceDebited',
  type: 'object',
  description: 'The balance after a manual debit (a `balance_debit` movement).',
  additionalProperties: false,
  required: ['tenant_id', 'transaction_id', 'amount', 'balance', 'currency'],
  properties: {
    tenant_id: { type: 'string', format: 'uuid', description: 'The debited tenant or workspace.' },
    transaction_id: { type: 'string', format: 'uuid', description: 'The balance transaction written.' },
    amount: { type: 'number', description: 'Amount debited (negative: it left the balance).' },
    balance: { type: 'number', description: 'Balance after the debit.' },
    currency: { type: 'string', description: 'ISO 4217 currency.' },
  },
} as const;
export type BalanceDebited = FromSchema<typeof BalanceDebited>;

export const billingUsageSchemas = [
  DebitBalanceInput,
  BalanceDebited,
  BillingUsageInput,
  BillingUsageMonth,
  BillingUsage,
  BillingTransactionListInput,
  BillingTransaction,
  BillingTransactionPage,
];
