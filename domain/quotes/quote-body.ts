import type { InvoiceInput } from '../../schemas/invoices.js';
import type { CreateQuoteInput } from '../../schemas/quotes.js';
import { type PreparedInvoice, prepareInvoice } from '../invoicing/index.js';
import { AppError } from '../shared/app-error.js';
import type { QuoteContent } from './quote-row.js';

/** The stored body of a quote: the input without the path's ids (and nothing undefined). */
export function contentOf(input: CreateQuoteInput & { id?: string }): QuoteContent {
  const { subTenantId: _s, id: _i, ...content } = input;
  return JSON.parse(JSON.stringify(content)) as QuoteContent;
}

/** The invoice body a quote's parties and lines make: what its rules and totals are checked as. */
export function invoiceBodyOf(content: QuoteContent): InvoiceInput {
  return {
    issue_date: content.issue_date,
    currency: content.currency ?? 'EUR',
    seller_siret: content.seller_siret,
    seller_name: content.seller_name,
    ...(content.seller_vat_number ? { seller_vat_number: content.seller_vat_number } : {}),
    ...(content.seller_country ? { seller_country: content.seller_country } : {}),
    seller_address: content.seller_address,
    ...(content.buyer_siret ? { buyer_siret: content.buyer_siret } : {}),
    buyer_name: content.buyer_name,
    ...(content.buyer_country ? { buyer_country: content.buyer_country } : {}),
    ...(content.buyer_vat_number ? { buyer_vat_number: content.buyer_vat_number } : {}),
    ...(content.buyer_legal_id ? { buyer_legal_id: content.buyer_legal_id } : {}),
    buyer_address: content.buyer_address,
    buyer_is_individual: content.buyer_is_individual ?? false,
    lines: content.lines,
    direction: 'outgoing',
    output_format: 'facturx',
    profile: 'en16931',
    archive_enabled: false,
  };
}

/**
 * Every rule of an invoice body (identifiers, VAT categories, amounts; 422 keyed by field), the
 * validity date, and the totals: a quote that passes can become invoices that pass.
 */
export function prepareQuote(content: QuoteContent): PreparedInvoice {
  const errors: Record<string, string[]> = {};
  if (content.validity_date < content.issue_date) errors.validity_date = ['must be on or after issue_date'];
  let prepared: PreparedInvoice | undefined;
  try {
    prepared = prepareInvoice(invoiceBodyOf(content));
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'VALIDATION_ERROR') throw err;
    Object.assign(errors, err.extra.fields ?? { lines: [err.message] });
  }
  if (Object.keys(errors).length > 0 || !prepared) throw AppError.validation(errors);
  if (!prepared.totalHt.greaterThan(0)) throw AppError.validation({ lines: ['the quote total must be above 0'] });
  return prepared;
}
