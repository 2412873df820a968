import { Decimal } from 'decimal.js';
import {
  createInvoice,
  getInvoice,
  getInvoiceDownloadLink,
  listInvoices,
} from '../../../domain/invoicing/operations/index.js';
import type { JsonSchema } from '../../../schemas/registry.js';
import { CREATE, idArgument, PAGING, READ, renameId, type ToolSpec } from '../tool.js';

const party = (role: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: ['name', 'address', 'city', 'postal_code'],
  description: `The ${role}.`,
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255, description: 'Legal name.' },
    siret: {
      type: 'string',
      pattern: '^[0-9]{14}$',
      description: 'SIRET, 14 digits (required for the seller; for a French company buyer).',
    },
    vat_number: {
      type: 'string',
      maxLength: 20,
      description: 'Intra-community VAT number (FR + key + SIREN for France).',
    },
    address: { type: 'string', minLength: 1, maxLength: 255, description: 'Street line.' },
    city: { type: 'string', minLength: 1, maxLength: 255, description: 'City.' },
    postal_code: { type: 'string', minLength: 1, maxLength: 20, description: 'Postal code (5 digits in France).' },
    country: {
      type: 'string',
      pattern: '^[A-Z]{2}$',
      default: 'FR',
      description: 'ISO 3166-1 alpha-2 code, FR by default.',
    },
  },
});

/** The specification's `create_invoice` arguments: parties as objects, lines without totals. */
const CREATE_INVOICE_ARGUMENTS: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['invoice_number', 'issue_date', 'seller', 'buyer', 'lines'],
  properties: {
    invoice_number: {
      type: 'string',
      minLength: 1,
      maxLength: 50,
      description: 'Your invoice number, unique per seller, at most 50 characters.',
    },
    issue_date: { type: 'string', format: 'date', description: 'Issue date, YYYY-MM-DD.' },
    due_date: { type: 'string', format: 'date', description: 'Payment due date, YYYY-MM-DD.' },
    seller: party('seller (the issuer; its SIRET is required)'),
    buyer: party('buyer'),
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: 1000,
      description:
        'The lines; totals are computed from them (line: quantity × unit_price rounded to the cent, VAT per line).',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['description', 'quantity', 'unit_price'],
        properties: {
          description: { type: 'string', minLength: 1, maxLength: 4000, description: 'What is sold.' },
          quantity: {
            type: 'number',
            minimum: 0.001,
            maximum: 1_000_000_000,
            description: 'Quantity, at least 0.001.',
          },
          unit_price: { type: 'number', minimum: 0, maximum: 1_000_000_000, description: 'Unit price excluding VAT.' },
          vat_rate: {
            type: 'number',
            minimum: 0,
            maximum: 100,
            default: 20,
            description: 'VAT rate in percent, 20 by default.',
          },
        },
      },
    },
    format: {
      type: 'string',
      enum: ['facturx', 'ubl', 'cii'],
      default: 'facturx',
      description: 'Output format, Factur-X by default.',
    },
    profile: {
      type: 'string',
      enum: ['minimum', 'basicwl', 'basic', 'en16931', 'extended'],
      default: 'en16931',
      description: 'Factur-X profile, EN 16931 by default.',
    },
  },
};

type Party = {
  name: string;
  siret?: string;
  vat_number?: string;
  address: string;
  city: string;
  postal_code: string;
  country: string;
};
type Line = { description: string; quantity: number; unit_price: number; vat_rate: number };

const cents = (value: Decimal): number => value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();

/**
 * The tool's arguments → `CreateInvoiceInput`: the parties' flat fields, and the totals computed as
 * the validator checks them (line amount rounded to the cent, VAT per line, their sums).
 */
function toCreateInvoiceInput(args: Record<string, unknown>): Record<string, unknown> {
  const seller = args.seller as Party;
  const buyer = args.buyer as Party;
  const lines = (args.lines as Line[]).map((line) => {
    const ht = new Decimal(line.quantity).times(line.unit_price).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const tax = ht.times(line.vat_rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    return {
      description: line.description,
      quantity: line.quantity,
      unit_price: line.unit_price,
      tax_rate: line.vat_rate,
      total_ht: cents(ht),
      total_tax: cents(tax),
      total_ttc: cents(ht.plus(tax)),
    };
  });
  const sum = (field: 'total_ht' | 'total_tax') => lines.reduce((s, l) => s.plus(l[field]), new Decimal(0));
  const address = (p: Party) => ({ line1: p.address, postal_code: p.postal_code, city: p.city, country: p.country });
  return {
    invoice_number: args.invoice_number,
    direction: 'outgoing',
    output_format: args.format,
    profile: args.profile,
    issue_date: args.issue_date,
    ...(args.due_date ? { due_date: args.due_date } : {}),
    total_ht: cents(sum('total_ht')),
    total_tax: cents(sum('total_tax')),
    total_ttc: cents(sum('total_ht').plus(sum('total_tax'))),
    seller_siret: seller.siret,
    seller_name: seller.name,
    ...(seller.vat_number ? { seller_vat_number: seller.vat_number } : {}),
    seller_country: seller.country,
    seller_address: address(seller),
    buyer_name: buyer.name,
    ...(buyer.siret ? { buyer_siret: buyer.siret } : {}),
    ...(buyer.vat_number ? { buyer_vat_number: buyer.vat_number } : {}),
    buyer_country: buyer.country,
    buyer_address: address(buyer),
    lines,
  };
}

export const invoiceTools: readonly ToolSpec[] = [
  {
    name: 'create_invoice',
    group: 'invoices',
    title: 'Create an electronic invoice',
    description:
      'Issues an outgoing electronic invoice (Factur-X by default, or UBL/CII) from a seller, a buyer and lines; totals are computed from the lines. The invoice enters the fiscal ledger and cannot be changed afterwards (correct it with a credit note). BILLABLE: 0.04 EUR per invoice with a production key (debited from the balance; 402 INSUFFICIENT_BALANCE when too low); free with a sandbox key. Returns the invoice; its files are ready shortly after (download_invoice).',
    input: CREATE_INVOICE_ARGUMENTS,
    annotations: CREATE,
    operation: createInvoice,
    toInput: toCreateInvoiceInput,
  },
  {
    name: 'get_invoice',
    group: 'invoices',
    title: 'Read an invoice',
    description: 'Reads one invoice with its lines, totals and status. Use it after create_invoice or list_invoices.',
    input: idArgument('invoice_id', 'The invoice id (UUID).'),
    annotations: READ,
    operation: getInvoice,
    toInput: renameId('invoice_id'),
  },
  {
    name: 'list_invoices',
    group: 'invoices',
    title: 'List invoices',
    description:
      'Lists invoices of the key’s environment, newest first, 15 per page by default (at most 100), filtered by status and issue dates. Returns `data` and paging `meta`.',
    input: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: {
          type: 'string',
          enum: [
            'draft',
            'validated',
            'submitted',
            'transmitted',
            'processing',
            'completed',
            'failed',
            'paid',
            'rejected',
            'deleted',
          ],
          description: 'Only invoices in this status.',
        },
        date_from: { type: 'string', format: 'date', description: 'Issued on or after this date.' },
        date_to: { type: 'string', format: 'date', description: 'Issued on or before this date.' },
        ...PAGING,
      },
    },
    annotations: READ,
    operation: listInvoices,
    toInput: ({ date_from, date_to, ...rest }) => ({
      ...rest,
      ...(date_from ? { from: date_from } : {}),
      ...(date_to ? { to: date_to } : {}),
    }),
  },
  {
    name: 'download_invoice',
    group: 'invoices',
    title: 'Link to an invoice file',
    description:
      'Returns a link `{url, expires_at}` to one file of an invoice, valid 15 minutes without credentials (give it to the user or fetch it; the file is not inlined). `pdf`: the readable PDF; `facturx`, `ubl`, `cii` or `xml`: the structured file in the invoice’s own output format.',
    input: idArgument('invoice_id', 'The invoice id (UUID).', {
      format: {
        type: 'string',
        enum: ['pdf', 'xml', 'facturx', 'ubl', 'cii'],
        default: 'pdf',
        description: 'Which file: pdf (default), or the structured file (xml, facturx, ubl, cii).',
      },
    }),
    annotations: READ,
    operation: getInvoiceDownloadLink,
    toInput: (args) => ({ id: args.invoice_id, type: args.format === 'pdf' ? 'pdf' : 'converted' }),
  },
];
