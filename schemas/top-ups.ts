import type { FromSchema } from 'json-schema-to-ts';

/** Balance top-ups (spec "Tenant billing records"), auto-reloads and the payment simulator's checkout. */

const PAYMENT_REF = '^(pi|cs)_[A-Za-z0-9_]{1,200}$';

export const CreateTopUpInput = {
  $id: 'CreateTopUpInput',
  type: 'object',
  description: 'A top-up of the prepaid balance: the amount to pay by card.',
  additionalProperties: false,
  required: ['amount'],
  properties: {
    amount: {
      type: 'number',
      minimum: 10,
      maximum: 100000,
      description: 'EUR to add, at least 10, at most 2 decimals.',
    },
  },
} as const;
export type CreateTopUpInput = FromSchema<typeof CreateTopUpInput>;

export const TopUpCheckout = {
  $id: 'TopUpCheckout',
  type: 'object',
  description: 'Where to pay a top-up: a Stripe Checkout page, or the payment simulator’s page in sandbox.',
  additionalProperties: false,
  required: ['checkout_url', 'amount', 'currency', 'top_up_id', 'session_id'],
  properties: {
    checkout_url: { type: 'string', format: 'uri', description: 'Send the payer’s browser here.' },
    amount: { type: 'number', description: 'Amount to pay (EUR).' },
    currency: { type: 'string', description: 'ISO 4217 currency (EUR).' },
    top_up_id: { type: 'string', format: 'uuid', description: 'Our id of the top-up.' },
    session_id: { type: 'string', description: 'The Checkout Session id (`cs_…`); confirm accepts it.' },
  },
} as const;
export type TopUpCheckout = FromSchema<typeof TopUpCheckout>;

export const ConfirmTopUpInput = {
  $id: 'ConfirmTopUpInput',
  type: 'object',
  description: 'Confirms a paid top-up: the balance is credited once, whoever confirms first.',
  additionalProperties: false,
  required: ['payment_intent_id'],
  properties: {
    payment_intent_id: {
      type: 'string',
      pattern: PAYMENT_REF,
      description: 'The PaymentIntent id (`pi_…`), or the Checkout Session id (`cs_…`) the success URL carries.',
    },
  },
} as const;
export type ConfirmTopUpInput = FromSchema<typeof ConfirmTopUpInput>;

export const TopUp = {
  $id: 'TopUp',
  type: 'object',
  description: 'A top-up or an auto-reload and what came of it.',
  additionalProperties: false,
  required: [
    'id',
    'source',
    'provider',
    'status',
    'amount',
    'currency',
    'environment',
    'checkout_session_id',
    'payment_intent_id',
    'credited',
    'balance',
    'failure_reason',
    'created_at',
    'completed_at',
  ],
  properties: {
    id: { type: 'string', format: 'uuid', description: 'Our id of the top-up.' },
    source: { type: 'string', enum: ['checkout', 'auto_reload'], description: 'A checkout, or an auto-reload.' },
    provider: { type: 'string', enum: ['stripe', 'simulator'], description: 'Who takes the payment.' },
    status: {
      type: 'string',
      enum: ['pending', 'succeeded', 'failed', 'canceled'],
      description: '`succeeded` once the payment is confirmed with the provider.',
    },
    amount: { type: 'number', description: 'Amount (EUR).' },
    currency: { type: 'string', description: 'ISO 4217 currency (EUR).' },
    environment: {
      type: 'string',
      enum: ['sandbox', 'production'],
      description: 'A sandbox top-up is a rehearsal on the simulator: it never credits the balance.',
    },
    checkout_session_id: { type: ['string', 'null'], description: 'The Checkout Session id, for a checkout.' },
    payment_intent_id: { type: ['string', 'null'], description: 'The PaymentIntent that paid it.' },
    credited: { type: 'boolean', description: 'Whether the balance was credited (once, by whoever came first).' },
    balance: { type: ['number', 'null'], description: 'The balance right after the credit.' },
    failure_reason: { type: ['string', 'null'], description: 'Why the payment failed, when it did.' },
    created_at: { type: 'string', format: 'date-time', description: 'When it was asked for.' },
    completed_at: { type: ['string', 'null'], format: 'date-time', description: 'When it succeeded or failed.' },
  },
} as const;
export type TopUp = FromSchema<typeof TopUp>;

export const RecordTopUpInput = {
  $id: 'RecordTopUpInput',
  type: 'object',
  description: 'A pending checkout top-up, recorded before the provider is asked for a session.',
  additionalProperties: false,
  required: ['amount', 'provider'],
  properties: {
    amount: { type: 'number', minimum: 10, maximum: 100000, description: 'EUR.' },
    provider: { type: 'string', enum: ['stripe', 'simulator'], description: 'Who takes the payment.' },
  },
} as const;
export type RecordTopUpInput = FromSchema<typeof RecordTopUpInput>;

export const AttachCheckoutSessionInput = {
  $id: 'AttachCheckoutSessionInput',
  type: 'object',
  description: 'The Checkout Session opened for a pending top-up, or null when none could be opened.',
  additionalProperties: false,
  required: ['top_up_id', 'checkout_session_id'],
  properties: {
    top_up_id: { type: 'string', format: 'uuid', description: 'Our id of the top-up.' },
    checkout_session_id: { type: ['string', 'null'], maxLength: 255, description: 'The session id, or null.' },
  },
} as const;
export type AttachCheckoutSessionInput = FromSchema<typeof AttachCheckoutSessionInput>;

export const FindTopUpInput = {
  $id: 'FindTopUpInput',
  type: 'object',
  description: 'A top-up of the caller’s tenant, by Checkout Session, PaymentIntent or our id.',
  additionalProperties: false,
  properties: {
    payment_ref: { type: 'string', pattern: PAYMENT_REF, description: 'A `cs_…` or `pi_…` id.' },
    top_up_id: { type: 'string', format: 'uuid', description: 'Our id of the top-up.' },
  },
} as const;
export type FindTopUpInput = FromSchema<typeof FindTopUpInput>;

export const SettleTopUpInput = {
  $id: 'SettleTopUpInput',
  type: 'object',
  description: 'What the payment provider says of a top-up’s payment: credited once when it succeeded.',
  additionalProperties: false,
  required: ['top_up_id', 'outcome'],
  properties: {
    top_up_id: { type: 'string', format: 'uuid', description: 'Our id of the top-up.' },
    outcome: { type: 'string', enum: ['succeeded', 'failed', 'canceled'], description: 'The payment’s outcome.' },
    payment_intent_id: { type: 'string', maxLength: 255, description: 'The PaymentIntent (required to succeed).' },
    amount_received: { type: 'integer', minimum: 0, description: 'Cents received (required to succeed).' },
    currency: { type: 'string', maxLength: 3, description: 'Currency received, lower case as Stripe writes it.' },
    customer_id: { type: 'string', maxLength: 255, description: 'The customer the card is saved on.' },
    payment_method_id: { type: 'string', maxLength: 255, description: 'The saved card, for auto-reloads.' },
    failure_reason: { type: 'string', maxLength: 1000, description: 'Why it failed.' },
  },
} as const;
export type SettleTopUpInput = FromSchema<typeof SettleTopUpInput>;

export const TopUpIdInput = {
  $id: 'TopUpIdInput',
  type: 'object',
  description: 'One top-up.',
  additionalProperties: false,
  required: ['top_up_id'],
  properties: { top_up_id: { type: 'string', format: 'uuid', description: 'Our id of the top-up.' } },
} as const;
export type TopUpIdInput = FromSchema<typeof TopUpIdInput>;

export const AutoReloadCharge = {
  $id: 'AutoReloadCharge',
  type: 'object',
  description: 'What an auto-reload charges, and on which saved card; null fields when it cannot run.',
  additionalProperties: false,
  required: ['top_up', 'provider', 'customer_id', 'payment_method_id', 'source_payment_intent_id'],
  properties: {
    top_up: { $ref: 'TopUp', description: 'The pending auto-reload.' },
    provider: { type: ['string', 'null'], enum: ['stripe', 'simulator', null], description: 'The card’s provider.' },
    customer_id: { type: ['string', 'null'], description: 'The saved customer.' },
    payment_method_id: { type: ['string', 'null'], description: 'The saved card.' },
    source_payment_intent_id: { type: ['string', 'null'], description: 'The checkout payment that saved it.' },
  },
} as const;
export type AutoReloadCharge = FromSchema<typeof AutoReloadCharge, { references: [typeof TopUp] }>;

export const SimulatedCheckoutInput = {
  $id: 'SimulatedCheckoutInput',
  type: 'object',
  description: 'A Checkout Session of the payment simulator, by its id (the page’s address).',
  additionalProperties: false,
  required: ['session_id'],
  properties: {
    session_id: { type: 'string', pattern: '^cs_sim_[A-Za-z0-9]{16,64}$', description: 'The session id.' },
  },
} as const;
export type SimulatedCheckoutInput = FromSchema<typeof SimulatedCheckoutInput>;

export const SimulatedCheckout = {
  $id: 'SimulatedCheckout',
  type: 'object',
  description: 'What the simulator’s checkout page shows.',
  additionalProperties: false,
  required: ['session_id', 'amount', 'currency', 'status', 'payment_status'],
  properties: {
    session_id: { type: 'string', description: 'The session id.' },
    amount: { type: 'number', description: 'Amount to pay.' },
    currency: { type: 'string', description: 'ISO 4217 currency.' },
    status: { type: 'string', enum: ['open', 'complete', 'expired'], description: 'As Stripe says it.' },
    payment_status: { type: 'string', enum: ['paid', 'unpaid'], description: 'As Stripe says it.' },
  },
} as const;
export type SimulatedCheckout = FromSchema<typeof SimulatedCheckout>;

/** Stripe's test cards the simulator knows: one that pays and keeps paying, one saved but declined off-session. */
export const SIMULATOR_CARDS = ['4242424242424242', '4000000000000341'] as const;

export const CompleteSimulatedCheckoutInput = {
  $id: 'CompleteSimulatedCheckoutInput',
  type: 'object',
  description: 'The payer’s answer on the simulator’s checkout page.',
  additionalProperties: false,
  required: ['session_id', 'action'],
  properties: {
    session_id: { type: 'string', pattern: '^cs_sim_[A-Za-z0-9]{16,64}$', description: 'The session id.' },
    action: { type: 'string', enum: ['pay', 'cancel'], description: 'Pay, or go back without paying.' },
    card: {
      type: 'string',
      enum: SIMULATOR_CARDS,
      default: '4242424242424242',
      description:
        'Test card: 4242… pays (and later auto-reloads pay); 4000 0000 0000 0341 pays now but is declined off-session.',
    },
  },
} as const;
export type CompleteSimulatedCheckoutInput = FromSchema<typeof CompleteSimulatedCheckoutInput>;

export const SimulatedCheckoutOutcome = {
  $id: 'SimulatedCheckoutOutcome',
  type: 'object',
  description: 'Where the simulator sends the browser after the payer’s answer.',
  additionalProperties: false,
  required: ['redirect_url'],
  properties: { redirect_url: { type: 'string', format: 'uri', description: 'The success or cancel URL.' } },
} as const;
export type SimulatedCheckoutOutcome = FromSchema<typeof SimulatedCheckoutOutcome>;

export const BalanceAlertInput = {
  $id: 'BalanceAlertInput',
  type: 'object',
  description: 'Whom to mail about the balance.',
  additionalProperties: false,
  properties: {},
} as const;
export type BalanceAlertInput = FromSchema<typeof BalanceAlertInput>;

export const BillingContact = {
  $id: 'BillingContact',
  type: 'object',
  description: 'The e-mail that balance alerts go to: billing, else technical, else sign-in e-mail.',
  additionalProperties: false,
  required: ['to'],
  properties: { to: { type: ['string', 'null'], description: 'The address, or null when none is known.' } },
} as const;
export type BillingContact = FromSchema<typeof BillingContact>;

export const topUpSchemas = [
  CreateTopUpInput,
  TopUpCheckout,
  ConfirmTopUpInput,
  TopUp,
  RecordTopUpInput,
  AttachCheckoutSessionInput,
  FindTopUpInput,
  SettleTopUpInput,
  TopUpIdInput,
  AutoReloadCharge,
  SimulatedCheckoutInput,
  SimulatedCheckout,
  CompleteSimulatedCheckoutInput,
  SimulatedCheckoutOutcome,
  BalanceAlertInput,
  BillingContact,
];
