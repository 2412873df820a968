import { outboundUrlProblem } from '../shared/outbound-url.js';

/**
 * Why a tenant's webhook URL is refused, or null when it is fine: the shared SSRF guard
 * (domain/shared/outbound-url.ts). https only, no credentials in the URL, and no loopback, private
 * or link-local address, unless private URLs are allowed (ALLOW_PRIVATE_URLS, local setups), which
 * also allows http. The delivery checks the resolved address again at connect time.
 */
export const webhookUrlProblem = (value: string, allowPrivate: boolean): string | null =>
  outboundUrlProblem(value, allowPrivate);
