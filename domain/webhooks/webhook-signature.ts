import { createHmac } from 'node:crypto';

/**
 * `X-Service-Signature: t=<unix seconds>,v1=<hex>` where v1 is the lowercase hex HMAC-SHA256 of
 * `<t>.<raw body>` under the endpoint's secret (spec "Outgoing webhooks"; Stripe's scheme, so its
 * verifiers accept it).
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${unixSeconds}.${body}`, 'utf8').digest('hex');
  return `t=${unixSeconds},v1=${v1}`;
}
