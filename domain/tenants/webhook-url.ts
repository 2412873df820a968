import { isIP } from 'node:net';

/**
 * Why a tenant's webhook URL is refused, or null when it is fine. https only, no credentials in the
 * URL, and no loopback, private or link-local address literal, unless private URLs are allowed
 * (ALLOW_PRIVATE_URLS, local setups), which also allows http. The delivery worker checks the
 * resolved address again at connect time (spec/DECISIONS.md, "Outgoing webhooks").
 */
export function webhookUrlProblem(value: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'must be an http or https URL' : 'must be an https URL';
  }
  if (url.username || url.password) return 'must not contain credentials';
  if (!allowPrivate && isPrivateHost(url.hostname)) return 'must point to a public address';
  return null;
}

function isPrivateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal')) {
    return true;
  }
  const version = isIP(host);
  if (version === 4) {
    const [a, b] = host.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168) ||
      a >= 224
    );
  }
  if (version === 6) {
    return (
      host === '::' ||
      host === '::1' ||
      host.startsWith('fc') ||
      host.startsWith('fd') ||
      host.startsWith('fe8') ||
      host.startsWith('fe9') ||
      host.startsWith('fea') ||
      host.startsWith('feb') ||
      host.startsWith('::ffff:')
    );
  }
  return false;
}
