import type { Knex } from 'knex';
import { type DocumentKind, saveInvoiceDocument } from '../../domain/invoicing/document-store.js';
import { isValidSiret } from '../../domain/tenants/siret.js';
import { postJson, readJson } from './http.js';
import { invoiceBody } from './invoice-bodies.js';

export { BUYER_SIRET, invoiceBody, SELLER_SIRET } from './invoice-bodies.js';

type Request = (path: string, init?: RequestInit) => Promise<Response>;
/** An invoice view as JSON, read loosely by assertions. */
// biome-ignore lint/suspicious/noExplicitAny: tests read the view loosely
type InvoiceJson = any;

/**
 * Creates an invoice through a real creation route (`/api/v1/invoices` by default) with a valid
 * body and returns its view; fails loudly when the route refuses it.
 */
export async function createInvoice(
  request: Request,
  key: string,
  overrides = {},
  path = '/api/v1/invoices',
): Promise<InvoiceJson> {
  const res = await request(path, postJson(invoiceBody(overrides), { 'X-API-Key': key }));
  const body = await readJson(res);
  if (res.status !== 201) throw new Error(`invoice creation failed: ${res.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** A random Luhn-valid SIRET (another seller or buyer). */
export function randomSiret(): string {
  for (;;) {
    const base = Array.from({ length: 13 }, () => Math.floor(Math.random() * 10)).join('');
    for (let d = 0; d <= 9; d++) if (isValidSiret(`${base}${d}`)) return `${base}${d}`;
  }
}

/** Sets the state the document worker leaves, with the owner's connection. */
export const setDocumentsStatus = (
  db: Knex,
  invoiceId: string,
  status: 'pending' | 'ready' | 'failed',
  error?: string,
) =>
  db('invoices')
    .where({ id: invoiceId })
    .update({ documents_status: status, documents_error: error ?? null });

const CONTENT_TYPES: Record<DocumentKind, string> = {
  original: 'application/pdf',
  pdf: 'application/pdf',
  facturx: 'application/pdf',
  ubl: 'application/xml',
  cii: 'application/xml',
};

/**
 * Stores one file of an invoice as the worker (or the upload) would, through the same store,
 * with recognisable bytes: `%PDF-1.7 <kind> <invoice id>` or an XML root naming them.
 */
export async function storeDocument(
  db: Knex,
  invoice: { id: string; invoice_number: string },
  tenantId: string,
  kind: DocumentKind,
  content?: Buffer,
) {
  const type = CONTENT_TYPES[kind];
  const bytes =
    content ??
    Buffer.from(
      type === 'application/pdf'
        ? `%PDF-1.7 ${kind} ${invoice.id}\n%%EOF\n`
        : `<?xml version="1.0"?><Invoice kind="${kind}" id="${invoice.id}"/>`,
    );
  const extension = type === 'application/pdf' ? 'pdf' : 'xml';
  return saveInvoiceDocument(db, {
    tenantId,
    invoiceId: invoice.id,
    kind,
    contentType: type,
    filename: `${invoice.invoice_number}-${kind}.${extension}`,
    content: bytes,
  });
}
