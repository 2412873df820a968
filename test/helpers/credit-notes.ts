import { postJson, readJson } from './http.js';

type Request = (path: string, init?: RequestInit) => Promise<Response>;
// biome-ignore lint/suspicious/noExplicitAny: tests read the views loosely
type Json = any;

/** Items crediting `share` (0..1) of the quantity of every line of an invoice view, at the invoiced price. */
export function itemsFor(invoice: Json, share = 1) {
  return invoice.lines.map((l: Json) => ({
    line_number: l.line_number,
    description: l.description,
    quantity: Number((l.quantity * share).toFixed(4)),
    unit_price: l.unit_price,
    tax_rate: l.tax_rate,
  }));
}

/**
 * Creates a credit note through POST /api/v1/credit-notes with a secret key (X-API-Key) and returns
 * its view; by default it credits half of every line. Fails loudly when the route refuses it.
 */
export async function createCreditNote(
  request: Request,
  key: string,
  invoice: Json,
  body: Record<string, unknown> = {},
): Promise<Json> {
  const res = await request(
    '/api/v1/credit-notes',
    postJson(
      { invoice_id: invoice.id, reason: 'Geste commercial', items: itemsFor(invoice, 0.5), ...body },
      {
        'X-API-Key': key,
      },
    ),
  );
  const json = await readJson(res);
  if (res.status !== 201) throw new Error(`credit note creation failed: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}
