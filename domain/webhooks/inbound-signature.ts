import { createHmac, timingSafeEqual } from 'node:crypto';

/** Spec "Limits": webhook replay window 300 seconds, in both directions (clocks drift either way). */
export const INBOUND_TOLERANCE_SECONDS = 300;

export type InboundVerification = { valid: true } | { valid: false; reason: string };

const HEX_SHA256 = /^[0-9a-f]{64}$/i;

/**
 * Checks a provider callback's signature: HMAC-SHA256 under the shared secret of the raw body bytes
 * (spec "Inbound provider webhooks"). Header forms: `sha256=<hex>` and bare hex sign the body;
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>]` signs `<t>.<body>` and needs |now - t| <= 300 s. Every
 * comparison is constant-time.
 */
export function verifyInboundSignature(
  rawBody: Buffer,
  header: string | null | undefined,
  secret: string,
  now: Date,
  toleranceSeconds = INBOUND_TOLERANCE_SECONDS,
): InboundVerification {
  const value = header?.trim();
  if (!value) return { valid: false, reason: 'no signature header' };
  if (!secret) return { valid: false, reason: 'no secret is configured for this provider' };
  const mac = (prefix: string) => createHmac('sha256', secret).update(prefix, 'utf8').update(rawBody).digest();

  if (value.startsWith('t=')) {
    const parts = value.split(',').map((part) => part.trim());
    const t = parts.find((part) => part.startsWith('t='))?.slice(2) ?? '';
    const signatures = parts.filter((part) => part.startsWith('v1=')).map((part) => part.slice(3));
    if (!/^\d{1,12}$/.test(t) || signatures.length === 0) return { valid: false, reason: 'malformed t=,v1= header' };
    if (Math.abs(now.getTime() / 1000 - Number(t)) > toleranceSeconds) {
      return { valid: false, reason: `timestamp outside the ${toleranceSeconds} s window` };
    }
    const expected = mac(`${t}.`);
    // Every candidate is compared (no early exit), each in constant time.
    const matched = signatures.map((hex) => equalHex(expected, hex)).includes(true);
    return matched ? { valid: true } : { valid: false, reason: 'signature does not match' };
  }
  const hex = value.toLowerCase().startsWith('sha256=') ? value.slice(7) : value;
  if (!HEX_SHA256.test(hex)) return { valid: false, reason: 'unrecognised signature format' };
  return equalHex(mac(''), hex) ? { valid: true } : { valid: false, reason: 'signature does not match' };
}

function equalHex(expected: Buffer, hex: string): boolean {
  if (!HEX_SHA256.test(hex)) return false;
  return timingSafeEqual(expected, Buffer.from(hex, 'hex'));
}
