import { randomAlphanumeric } from '../shared/random.js';
import { open, seal } from '../shared/secret-box.js';

/** `whsec_` + 32 characters (spec "Webhook endpoint"), from the CSPRNG. */
export const generateWebhookSecret = (): string => `whsec_${randomAlphanumeric(32)}`;

/** The endpoint's id is sealed with the value: a secret copied to another row does not open there. */
const secretContext = (endpointId: string) => `webhook_endpoints.secret:${endpointId}`;
const headersContext = (endpointId: string) => `webhook_endpoints.headers:${endpointId}`;

export const sealWebhookSecret = (key: Buffer, endpointId: string, secret: string): string =>
  seal(key, secret, secretContext(endpointId));

export const openWebhookSecret = (key: Buffer, endpointId: string, sealed: string): string =>
  open(key, sealed, secretContext(endpointId));

/** Custom headers may carry credentials of the receiver: sealed like the secret. */
export const sealHeaders = (key: Buffer, endpointId: string, headers: Record<string, string>): string =>
  seal(key, JSON.stringify(headers), headersContext(endpointId));

export const openHeaders = (key: Buffer, endpointId: string, sealed: string | null): Record<string, string> =>
  sealed ? (JSON.parse(open(key, sealed, headersContext(endpointId))) as Record<string, string>) : {};
