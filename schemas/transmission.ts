import type { FromSchema } from 'json-schema-to-ts';
import type { ErrorResponse } from './common.js';

/** Submission, lifecycle and payment of outgoing invoices and the provider's plumbing. */

const uuid = (description: string) => ({ type: 'string', format: 'uuid', description }) as const;
const nullableStr = (description: string) => ({ type: ['string', 'null'], description }) as const;
const nullableTime = (description: string) => ({ type: ['string', 'null'], format: 'date-time', description }) as const;

export const LifecycleEvent = {
  $id: 'LifecycleEvent',
  type: 'object',
  description: 'One lifecycle event of an invoice, as the e-invoicing provider logged it.',
  additionalProperties: false,
  required: ['code', 'label', 'reason', 'at'],
  properties: {
    code: { type: 'string', description: 'Provider code: `api:uploaded`, French `fr:200` … `fr:213`, `fr:501`.' },
    label: { type: 'string', description: 'The code in words (French lifecycle label).' },
    reason: nullableStr('The reason given with an unfavourable status (AFNOR reason code and text).'),
    at: { type: 'string', format: 'date-time', description: 'When the provider logged it.' },
  },
} as const;

export const InvoiceIdsInput = {
  $id: 'InvoiceIdsInput',
  type: 'object',
  description: 'Up to 100 invoice ids.',
  additionalProperties: false,
  required: ['invoice_ids'],
  properties: {
    invoice_ids: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      uniqueItems: true,
      items: uuid('An invoice id.'),
      description: 'The invoices, at most 100.',
    },
  },
} as const;
export type InvoiceIdsInput = FromSchema<typeof InvoiceIdsInput>;

export const InvoiceTransmissionStatus = {
  $id: 'InvoiceTransmissionStatus',
  type: 'object',
  description: "One invoice's transmission state, or why it could not be read or submitted.",
  additionalProperties: false,
  required: ['id', 'status'],
  properties: {
    id: uuid('Invoice id.'),
    status: nullableStr('Invoice status; null when the invoice could not be found.'),
    status_message: nullableStr('Reason, notably on rejection or failure.'),
    pdp_id: nullableStr("The e-invoicing provider's id, once uploaded."),
    submitted_at: nullableTime('When it was submitted.'),
    error: {
      anyOf: [{ $ref: 'ErrorResponse' }, { type: 'null' }],
      description: 'Why this invoice was refused, in the error shape (the others are not affected).',
    },
  },
} as const;
export type InvoiceTransmissionStatus = FromSchema<
  typeof InvoiceTransmissionStatus,
  { references: [typeof ErrorResponse] }
>;

export const InvoiceTransmissionStatuses = {
  $id: 'InvoiceTransmissionStatuses',
  type: 'object',
  description: 'One entry per invoice asked for, in the order given.',
  additionalProperties: false,
  required: ['data'],
  properties: {
    data: { type: 'array', items: { $ref: 'InvoiceTransmissionStatus' }, description: 'The invoices.' },
  },
} as const;

export const SimulateLifecycleInput = {
  $id: 'SimulateLifecycleInput',
  type: 'object',
  description: 'A lifecycle code to force on a submitted sandbox invoice.',
  additionalProperties: false,
  required: ['id', 'status_code'],
  properties: {
    id: uuid('Invoice id.'),
    status_code: {
      type: 'string',
      maxLength: 64,
      pattern: '^(api|fr):[a-z0-9_]+$',
      description: 'The code, e.g. `fr:210` (refused), `fr:213` (rejected), `fr:212` (paid), `fr:205` (approved).',
    },
    reason: {
      type: 'string',
      minLength: 1,
      maxLength: 900,
      description: 'Reason with an unfavourable status (e.g. `NON_CONFORME: prix erroné`).',
    },
  },
} as const;
export type SimulateLifecycleInput = FromSchema<typeof SimulateLifecycleInput>;

export const MarkInvoicePaidInput = {
  $id: 'MarkInvoicePaidInput',
  type: 'object',
  description: 'A payment received for an outgoing invoice.',
  additionalProperties: false,
  required: ['id'],
  properties: {
    id: uuid('Invoice id.'),
    payment_reference: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: "The bank's reference of the payment (default: `manual`).",
    },
    payment_date: { type: 'string', format: 'date', description: 'When it was received (default: today, UTC).' },
  },
} as const;
export type MarkInvoicePaidInput = FromSchema<typeof MarkInvoicePaidInput>;

export const transmissionSchemas = [
  LifecycleEvent,
  InvoiceIdsInput,
  InvoiceTransmissionStatus,
  InvoiceTransmissionStatuses,
  SimulateLifecycleInput,
  MarkInvoicePaidInput,
];
