import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

/**
 * A typed client of this API: `openapi-fetch` over the types `openapi-typescript` generated from our
 * OpenAPI document (schema.d.ts, `npm run client:generate`). Paths, parameters, bodies and answers
 * are checked by the compiler: `client.POST('/api/v1/sandbox/invoices', { body })`.
 */
export function createEinvoiceClient(baseUrl: string, apiKey: string) {
  return createClient<paths>({ baseUrl, headers: { 'X-API-Key': apiKey } });
}

export type EinvoiceClient = ReturnType<typeof createEinvoiceClient>;
export type { components, operations, paths } from './schema.js';
