import { AppError } from '../shared/app-error.js';
import { checkOutboundUrl } from '../shared/outbound-url.js';
import type { WebhookEndpointRow } from './webhook-endpoint.js';
import { headerProblems } from './webhook-endpoint.js';
import { sealHeaders } from './webhook-secret.js';

/** The URL passes the SSRF guard now (form and current DNS answer), or 422 on `field`. */
export async function assertEndpointUrl(url: string, allowPrivate: boolean, field = 'url'): Promise<void> {
  const problem = await checkOutboundUrl(url, { allowPrivate });
  if (problem) throw AppError.validation({ [field]: [problem] });
}

/** Sealed custom headers and their names (the names are shown, the values never), or 422. */
export function headerColumns(
  appKey: Buffer,
  endpointId: string,
  headers: Record<string, string> | null | undefined,
): Pick<WebhookEndpointRow, 'headers_encrypted' | 'header_names'> {
  if (!headers || Object.keys(headers).length === 0) return { headers_encrypted: null, header_names: [] };
  const errors = headerProblems(headers);
  if (Object.keys(errors).length) throw AppError.validation(errors);
  return { headers_encrypted: sealHeaders(appKey, endpointId, headers), header_names: Object.keys(headers) };
}
