import type { FromSchema } from 'json-schema-to-ts';
import { MONTH_PATTERN } from '../domain/billing/index.js';
import { pageOf, pageParams } from './common.js';

/** The operator's monthly invoices to its tenants (GET /v1/tenant/billing/invoices…) and the monthly run. */

const MONTH = { type: 'string', pattern: MONTH_PATTERN } as const;
const money = (description: string) => ({ type: 'number', description }) as const;
const id = { type: 'string', format: 'uuid', description: 'Id of the billing invoice.' } as const;

const party = (description: string) =>
  ({
    type: 'object',
    description,
    additionalProperties: false,
    required: ['name', 'siret', 'siren', 'vat_number', 'address'],
    properties: {
      name: { type: 'string', description: 'Legal name.' },
      siret: { type: ['string', 'null'], description: 'SIRET (14 digits), when known.' },
      siren: { type: ['string', 'null'], description: 'SIREN (9 digits), when known.' },
      vat_number: { type: ['string', 'null'], description: 'Intra-EU VAT number.' },
      address: {
        type: 'object',
        description: 'Postal address as printed; the parts not known are empty.',
        additionalProperties: false,
        required: ['line1', 'postal_code', 'city', 'country'],
        properties: {
          line1: { type: 'string', description: 'Street line.' },
          postal_code: { type: 'string', description: 'Postcode.' },
          city: { type: 'string', description: 'City.' },
          country: { type: 'string', description: 'ISO 3166-1 alpha-2 country.' },
        },
      },
    },
  }) as const;

const kindLine = (description: string) =>
  ({
    type: 'object',
    description,
    additionalProperties: false,
    required: ['count', 'unit_price', 'amount'],
    properties: {
      count: { type: 'integer', minimum: 0, description: 'How many in the month, in production.' },
      unit_price: money('Unit price (EUR, excluding VAT), before any discount.'),
      amount: money('count × unit_price (EUR, excluding VAT).'),
    },
  }) as const;

export const BillingInvoice = {
  $id: 'BillingInvoice',
  type: 'object',
  description:
    "The operator's invoice for one month of a tenant's paid usage: an EN 16931 invoice, prepaid by the balance, whose Factur-X PDF is at `…/download`.",
  additionalProperties: false,
  required: [
    'id',
    'number',
    'month',
    'issue_date',
    'currency',
    'invoices',
    'signatures',
    'credit_notes',
    'gross_amount',
    'discount_rate',
    'discount_amount',
    'total_ht',
    'vat_rate',
    'total_vat',
    'total_ttc',
    'debited_amount',
    'vat_debited',
    'prepaid_amount',
    'amount_due',
    'status',
    'seller',
    'buyer',
    'documents_status',
    'pdf_sha256',
    'created_at',
  ],
  properties: {
    id,
    number: { type: 'string', description: "Number in the operator's gap-free sequence, `FAC-OP-YYYY-NNNNNN`." },
    month: { ...MONTH, description: 'The month billed, `YYYY-MM` (Europe/Paris).' },
    issue_date: { type: 'string', format: 'date', description: 'Issue date (BT-2).' },
    currency: { type: 'string', description: 'ISO 4217 currency (EUR).' },
    invoices: kindLine('Electronic invoices.'),
    signatures: kindLine('Signature requests.'),
    credit_notes: kindLine('Credit notes.'),
    gross_amount: money('Every kind at its unit price: what the usage debits took from the balance in the month.'),
    discount_rate: {
      type: 'number',
      description: 'Volume discount on the electronic invoices, in percent (0, 10, 20 or 30).',
    },
    discount_amount: money('The volume discount (EUR), credited back to the balance (`billing_discount`).'),
    total_ht: money('Total excluding VAT (BT-109).'),
    vat_rate: { type: 'number', description: 'VAT rate in percent (20).' },
    total_vat: money('VAT (BT-110).'),
    total_ttc: money('Total including VAT (BT-112).'),
    debited_amount: money("The month's usage debits (EUR)."),
    vat_debited: money(
      'The VAT taken from the balance at billing (`billing_vat`); 0 when the balance did not cover it.',
    ),
    prepaid_amount: money('Paid by the balance (BT-113): debited_amount − discount_amount + vat_debited.'),
    amount_due: money('Still to pay (BT-115): total_ttc − prepaid_amount; 0 when the balance covered it all.'),
    status: { type: 'string', enum: ['paid', 'due'], description: '`paid` when nothing remains due.' },
    seller: party('The operator (seller, BG-4).'),
    buyer: party('The tenant (buyer, BG-7).'),
    documents_status: {
      type: 'string',
      enum: ['pending', 'ready', 'failed'],
      description: 'Whether the Factur-X PDF is rendered (the worker does it right after issuing).',
    },
    pdf_sha256: { type: ['string', 'null'], description: 'SHA-256 (hex) of the Factur-X PDF, once ready.' },
    created_at: { type: 'string', format: 'date-time', description: 'When it was issued.' },
  },
} as const;
export type BillingInvoice = FromSchema<typeof BillingInvoice>;

export const BillingInvoiceListInput = {
  $id: 'BillingInvoiceListInput',
  type: 'object',
  description: 'Filters and page of the billing invoices, newest month first.',
  additionalProperties: false,
  properties: {
    year: { type: 'integer', minimum: 2000, maximum: 9999, description: 'Only the months of this year.' },
    ...pageParams(25, 100),
  },
} as const;
export type BillingInvoiceListInput = FromSchema<typeof BillingInvoiceListInput>;

export const BillingInvoicePage = pageOf(
  'BillingInvoicePage',
  'BillingInvoice',
  'A page of billing invoices, newest month first.',
);

export const BillingInvoiceIdInput = {
  $id: 'BillingInvoiceIdInput',
  type: 'object',
  description: 'One billing invoice.',
  additionalProperties: false,
  required: ['id'],
  properties: { id },
} as const;
export type BillingInvoiceIdInput = FromSchema<typeof BillingInvoiceIdInput>;

export const BillingInvoiceFile = {
  $id: 'BillingInvoiceFile',
  type: 'string',
  description: 'The Factur-X PDF/A-3 of the billing invoice (EN 16931 CII embedded), named in Content-Disposition.',
} as const;

export const RunMonthlyBillingInput = {
  $id: 'RunMonthlyBillingInput',
  type: 'object',
  description: 'Which month to bill (the one that ended last when left out), and optionally one tenant only.',
  additionalProperties: false,
  properties: {
    month: { ...MONTH, description: 'A month that has ended, `YYYY-MM` (Europe/Paris).' },
    tenant_id: { type: 'string', format: 'uuid', description: 'Bill this tenant only.' },
  },
} as const;
export type RunMonthlyBillingInput = FromSchema<typeof RunMonthlyBillingInput>;

export const MonthlyBillingRun = {
  $id: 'MonthlyBillingRun',
  type: 'object',
  description: 'What the run queued: one billing job per tenant with paid usage in the month.',
  additionalProperties: false,
  required: ['month', 'tenants', 'queued'],
  properties: {
    month: { ...MONTH, description: 'The month billed.' },
    tenants: { type: 'integer', description: 'Platform tenants with paid usage in the month.' },
    queued: {
      type: 'integer',
      description: 'Billing jobs queued (one already queued for a tenant is not queued twice).',
    },
  },
} as const;
export type MonthlyBillingRun = FromSchema<typeof MonthlyBillingRun>;

export const IssueBillingInvoiceInput = {
  $id: 'IssueBillingInvoiceInput',
  type: 'object',
  description: "Issue one tenant's billing invoice for one month (worker step).",
  additionalProperties: false,
  required: ['tenant_id', 'month'],
  properties: {
    tenant_id: { type: 'string', format: 'uuid', description: 'The tenant billed.' },
    month: { ...MONTH, description: 'The month billed.' },
  },
} as const;
export type IssueBillingInvoiceInput = FromSchema<typeof IssueBillingInvoiceInput>;

export const IssuedBillingInvoice = {
  $id: 'IssuedBillingInvoice',
  type: 'object',
  description: 'What issuing did: a new invoice, the one already issued for that month, or nothing to bill.',
  additionalProperties: false,
  required: ['outcome', 'billing_invoice'],
  properties: {
    outcome: { type: 'string', enum: ['issued', 'existing', 'nothing_to_bill'], description: 'What happened.' },
    billing_invoice: {
      anyOf: [{ $ref: 'BillingInvoice' }, { type: 'null' }],
      description: 'The month’s invoice; null when there was nothing to bill.',
    },
  },
} as const;
export type IssuedBillingInvoice = FromSchema<typeof IssuedBillingInvoice, { references: [typeof BillingInvoice] }>;

export const GeneratedBillingInvoiceDocuments = {
  $id: 'GeneratedBillingInvoiceDocuments',
  type: 'object',
  description: 'The Factur-X of a billing invoice rendered (worker step), or skipped when already ready.',
  additionalProperties: false,
  required: ['id', 'documents_status'],
  properties: {
    id,
    documents_status: { type: 'string', enum: ['ready', 'failed', 'skipped'], description: 'What the step did.' },
  },
} as const;
export type GeneratedBillingInvoiceDocuments = FromSchema<typeof GeneratedBillingInvoiceDocuments>;

export const billingInvoiceSchemas = [
  BillingInvoice,
  BillingInvoiceListInput,
  BillingInvoicePage,
  BillingInvoiceIdInput,
  BillingInvoiceFile,
  RunMonthlyBillingInput,
  MonthlyBillingRun,
  IssueBillingInvoiceInput,
  IssuedBillingInvoice,
  GeneratedBillingInvoiceDocuments,
];
