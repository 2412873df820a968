import type { SchemaRegistry } from './registry.js';

// The fixed parts of the OpenAPI document: security schemes, tag and error texts, component schemas.

/** Security schemes of the specification's auth labels. */
export const SECURITY_SCHEMES: Record<string, { name: string; scheme: Record<string, unknown> }> = {
  api_key: {
    name: 'ApiKey',
    scheme: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Secret key `sk_live_…` / `sk_test_…`.' },
  },
  tenant_key: {
    name: 'TenantKey',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Tenant-Key',
      description: "A tenant's secret key (also accepted in X-API-Key).",
    },
  },
  bearer: {
    name: 'Bearer',
    scheme: { type: 'http', scheme: 'bearer', description: 'Access token from login or register.' },
  },
  publishable_key: {
    name: 'PubKey',
    scheme: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Publishable-Key',
      description: 'Publishable key `pk_live_…` / `pk_test_…`.',
    },
  },
  cookie: {
    name: 'CookieSession',
    scheme: {
      type: 'apiKey',
      in: 'cookie',
      name: 'einvoice_session',
      description: 'Dashboard session cookie (with X-XSRF-TOKEN).',
    },
  },
};

export const TAG_DESCRIPTIONS: Record<string, string> = {
  MCP: 'The MCP server for AI agents: JSON-RPC 2.0 over HTTP, 54 tools over the same operations (docs/api/mcp.md).',
  Health: 'Liveness and public information.',
  Meta: 'The machine-readable description of this API.',
  Balance: 'The prepaid EUR balance of the account and its alert and auto-reload settings.',
  Auth: 'Dashboard users: registration, sign-in (password, Google, cookie session), password reset.',
  Companies: 'The legal entities a user invoices as, and their identity verification (KYC).',
  'API keys': "A user's secret keys: created once, listed, revoked at once and for good.",
  'Tenant authentication': "A platform tenant's registration, sign-in and keys.",
  'Tenant profile': "The tenant's own profile, balance and figures.",
  'Tenant billing':
    "The tenant's paid usage per month, every movement of its balance, and the operator's monthly invoices (Factur-X, prepaid by the balance).",
  KYB: "The tenant's identity verification (KYB): its documents (stored encrypted) and status; production keys work once it is verified.",
  'Sub-tenants': "A tenant's clients, subsidiaries or departments, each with its own data.",
  Invoices: 'Invoices in Factur-X, UBL and CII (EN 16931): creation, reading, files, audit trail.',
  'Tenant invoices': "A tenant's invoices and its sub-tenants', one at a time or in bulk.",
  'Credit notes':
    'Credit notes against invoices, partial or total, never beyond what remains creditable: draft, sent (irreversible), files (CII 381, UBL CreditNote, Factur-X, PDF).',
  'Tenant credit notes': "A sub-tenant's credit notes, against the sub-tenant's own invoices.",
  Fiscal: "The tenant's fiscal ledger: integrity checks of its hash chains (scope fiscal:read).",
  Webhooks:
    'Endpoints that receive your events as signed POSTs (X-Service-Signature: t=<unix s>,v1=<HMAC-SHA256 hex>), retried for about 27 hours, with a log of every attempt.',
  Admin:
    "Operator routes, for dashboard users with the `admin access` permission (bearer token or cookie session, never an API key): the signature provider's account, its verification, tokens and wallet; the KYB review queue.",
  Sandbox: 'The sandbox route set: the same operations, for sk_test_ keys only, free and never sent.',
};

export const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request (invalid JSON, bad header).',
  401: 'Missing, malformed, unknown or revoked credentials.',
  402: 'The prepaid balance does not cover this paid operation (production only).',
  403: 'The credential may not do this (scope, permission, KYB, environment, disabled tenant).',
  404: 'Unknown id, or an id that belongs to someone else.',
  409: 'Conflict (duplicate, Idempotency-Key in use, a state that forbids the request, a file not generated yet).',
  410: 'Gone: the download link expired; ask for a new one.',
  413: 'Request body larger than the route accepts.',
  415: 'Request body is not JSON.',
  422: 'Validation failed (`errors` keyed by dotted path), or a business rule refused the request (`code`).',
  429: 'Rate limit exceeded; see Retry-After.',
  500: 'Internal error; quote the request id.',
  503: 'Service or provider unavailable.',
};

/** Sent on every rate-limited response (and with Retry-After on a 429), per the specification's "Limits". */
export const RATE_LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-RateLimit-Environment',
] as const;

export const RATE_LIMIT_HEADER_COMPONENTS: Record<string, unknown> = {
  'X-RateLimit-Limit': { description: 'Requests allowed in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': {
    description: 'When the current window ends (Unix time, seconds).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Environment': {
    description: 'Environment whose limits apply (`sandbox` or `production`).',
    schema: { type: 'string', enum: ['sandbox', 'production'] },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};

/** Schema-registry refs (`"$ref": "Invoice"`) → component refs, noting each one used. */
export function refs(schema: unknown, referenced: Set<string>): unknown {
  if (Array.isArray(schema)) return schema.map((item) => refs(item, referenced));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$ref' && typeof value === 'string' && !value.startsWith('#')) {
      referenced.add(value);
      out.$ref = `#/components/schemas/${value}`;
    } else if (key !== '$id') {
      out[key] = refs(value, referenced);
    }
  }
  return out;
}

/** The referenced schemas and everything they reference in turn. */
export function componentSchemas(schemas: SchemaRegistry, referenced: Set<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const queue = [...referenced];
  while (queue.length) {
    const id = queue.shift()!;
    if (id in out) continue;
    const found = new Set<string>();
    out[id] = refs(schemas.get(id), found);
    queue.push(...found);
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
}
