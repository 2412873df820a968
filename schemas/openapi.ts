import type { JsonSchema, SchemaRegistry } from './registry.js';

/** What the OpenAPI emitter needs of a route (api/http/route-spec.ts satisfies it). */
export interface DocumentedRoute {
  method: string;
  path: string;
  tag: string;
  auth: readonly string[];
  status?: number;
  envelope?: 'data' | 'raw';
  message?: string;
  summary?: string;
  operation: { name: string; summary: string; input: string; output: string; kind: string };
}

export const API_VERSION = '1.2.1';

/** Security schemes of the specification's auth labels. */
const SECURITY_SCHEMES: Record<string, { name: string; scheme: Record<string, unknown> }> = {
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

const TAG_DESCRIPTIONS: Record<string, string> = {
  Health: 'Liveness and public information.',
  Meta: 'The machine-readable description of this API.',
};

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request (invalid JSON, bad header).',
  401: 'Missing, malformed, unknown or revoked credentials.',
  403: 'The credential may not do this (scope, KYB, environment, disabled tenant).',
  404: 'Unknown id, or an id that belongs to someone else.',
  409: 'Conflict (duplicate, Idempotency-Key in use).',
  413: 'Request body larger than the route accepts.',
  415: 'Request body is not JSON.',
  422: 'Validation failed; `errors` is keyed by dotted path.',
  429: 'Rate limit exceeded; see Retry-After.',
  500: 'Internal error; quote the request id.',
  503: 'Service or provider unavailable.',
};

/** Builds the OpenAPI 3.1 document from the route tables and the schema registry (never by hand). */
export function buildOpenApiDocument(
  routes: readonly DocumentedRoute[],
  schemas: SchemaRegistry,
  options: { serverUrl?: string | null } = {},
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const usedIds = new Set<string>();
  const usedSchemes = new Set<string>();
  const usedTags = new Set<string>();
  const referenced = new Set<string>();
  const usedErrors = new Set<number>();

  for (const route of routes) {
    const input = schemas.get(route.operation.input);
    const properties = (input.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((input.required as string[] | undefined) ?? []);
    const pathParams = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const hasBody = ['post', 'put', 'patch'].includes(route.method);
    const rest = Object.keys(properties).filter((name) => !pathParams.includes(name));

    const parameters = pathParams.map((name) => ({
      name,
      in: 'path',
      required: true,
      description: (properties[name]?.description as string) ?? name,
      schema: refs(properties[name] ?? { type: 'string' }, referenced),
    }));
    if (!hasBody) {
      for (const name of rest) {
        parameters.push({
          name,
          in: 'query',
          required: required.has(name),
          description: (properties[name].description as string) ?? name,
          schema: refs(properties[name], referenced),
        });
      }
    }

    let operationId = route.operation.name;
    for (let n = 2; usedIds.has(operationId); n++) operationId = `${route.operation.name}_${n}`;
    usedIds.add(operationId);
    usedTags.add(route.tag);
    referenced.add(route.operation.output);

    const isPublic = route.auth.includes('none');
    const security = isPublic
      ? []
      : route.auth.map((scheme) => {
          const name = SECURITY_SCHEMES[scheme].name;
          usedSchemes.add(scheme);
          return { [name]: [] };
        });

    const errors = new Set([404, 429, 500]);
    if (rest.length || pathParams.length) errors.add(422);
    if (!isPublic) for (const s of [401, 403]) errors.add(s);
    if (hasBody) for (const s of [400, 409, 413, 415]) errors.add(s);
    if (route.operation.name === 'health_check') errors.add(503);
    for (const status of errors) usedErrors.add(status);

    const outputRef = { $ref: `#/components/schemas/${route.operation.output}` };
    const success =
      route.envelope === 'raw'
        ? outputRef
        : {
            type: 'object',
            required: route.message ? ['message', 'data'] : ['data'],
            properties: route.message ? { message: { type: 'string' }, data: outputRef } : { data: outputRef },
          };

    const operation: Record<string, unknown> = {
      operationId,
      summary: route.summary ?? route.operation.summary,
      tags: [route.tag],
      security,
      parameters,
      responses: {
        [String(route.status ?? 200)]: {
          description: route.operation.summary,
          headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
          content: { 'application/json': { schema: success } },
        },
        ...Object.fromEntries(
          [...errors]
            .sort((a, b) => a - b)
            .map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]),
        ),
      },
    };
    if (hasBody) {
      const bodySchema: Record<string, unknown> = { ...input, properties: pick(properties, rest) };
      delete bodySchema.$id;
      bodySchema.required = [...required].filter((name) => !pathParams.includes(name));
      operation.parameters = [
        ...parameters,
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes the POST safe to retry: the first response is replayed for 24 hours.',
          schema: { type: 'string', maxLength: 255 },
        },
      ];
      operation.requestBody = {
        required: Array.isArray(bodySchema.required) && bodySchema.required.length > 0,
        content: { 'application/json': { schema: refs(bodySchema, referenced) } },
      };
    }
    paths[route.path] ??= {};
    paths[route.path][route.method] = operation;
  }

  referenced.add('ErrorResponse');
  if (usedErrors.has(422)) referenced.add('ValidationErrorResponse');
  return {
    openapi: '3.1.0',
    info: {
      title: 'E-invoicing, e-signature and fiscal ledger API',
      version: API_VERSION,
      description:
        'Factur-X, UBL and CII (EN 16931) invoices sent to the French e-invoicing network, simple electronic signatures, credit notes, prepaid billing, multi-tenant platforms and an immutable fiscal ledger.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: options.serverUrl ?? '/', description: 'This server' }],
    tags: [...usedTags].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      schemas: componentSchemas(schemas, referenced),
      securitySchemes: Object.fromEntries(
        [...usedSchemes].map((scheme) => [SECURITY_SCHEMES[scheme].name, SECURITY_SCHEMES[scheme].scheme]),
      ),
      headers: {
        'X-Request-Id': { description: 'Id of this request, for support and logs.', schema: { type: 'string' } },
      },
      responses: Object.fromEntries(
        [...usedErrors]
          .sort((a, b) => a - b)
          .map((status) => [
            `Error${status}`,
            {
              description: ERROR_DESCRIPTIONS[status],
              headers: { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } },
              content: {
                'application/json': {
                  schema: {
                    $ref: `#/components/schemas/${status === 422 ? 'ValidationErrorResponse' : 'ErrorResponse'}`,
                  },
                },
              },
            },
          ]),
      ),
    },
  };
}

function pick(properties: Record<string, JsonSchema>, names: string[]): Record<string, JsonSchema> {
  return Object.fromEntries(names.map((name) => [name, properties[name]]));
}

/** Schema-registry refs (`"$ref": "Invoice"`) → component refs, noting each one used. */
function refs(schema: unknown, referenced: Set<string>): unknown {
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
function componentSchemas(schemas: SchemaRegistry, referenced: Set<string>): Record<string, unknown> {
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
