import {
  componentSchemas,
  ERROR_DESCRIPTIONS,
  RATE_LIMIT_HEADER_COMPONENTS,
  RATE_LIMIT_HEADERS,
  refs,
  SECURITY_SCHEMES,
  TAG_DESCRIPTIONS,
} from './openapi-components.js';
import { MCP_PATHS } from './openapi-mcp.js';
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
  /** Session routes set cookies at the HTTP edge and take no Idempotency-Key (bind-route.ts). */
  respond?: unknown;
  /** Media types of a route that answers with a file instead of JSON. */
  file?: readonly string[];
  /** With `file`: the schema of the JSON answered instead of the file (a download route's link). */
  alternateJson?: string;
  /** Error statuses beyond the usual ones. */
  errors?: readonly number[];
  /** The route also takes multipart/form-data with this file field. */
  upload?: { field: string };
  /** A signed callback: any JSON body, verified on its bytes with this header. */
  rawBody?: { signatureHeader?: string };
  /** `none`: not rate limited (health, provider callbacks): no 429, no rate-limit headers. */
  rateLimit?: string;
  operation: { name: string; summary: string; input: string; output: string; kind: string };
}

export const API_VERSION = '1.2.1';

/**
 * The error statuses a route documents: 404 and 500 always; 429 when it is rate limited; 422 when it
 * takes input or a body (unknown fields are refused); 401 and 403 when it takes credentials; 400, 409, 413 and 415 when it takes a body;
 * then the route's own `errors`.
 */
export function documentedErrors(
  route: Pick<DocumentedRoute, 'method' | 'path' | 'auth' | 'rateLimit' | 'errors' | 'operation'>,
  input: JsonSchema,
): Set<number> {
  const hasBody = ['post', 'put', 'patch'].includes(route.method);
  const takesInput = Object.keys((input.properties ?? {}) as object).length > 0 || route.path.includes('{');
  const errors = new Set([404, 500]);
  if (route.rateLimit !== 'none') errors.add(429);
  if (takesInput || hasBody) errors.add(422);
  if (!route.auth.includes('none')) for (const s of [401, 403]) errors.add(s);
  if (hasBody) for (const s of [400, 409, 413, 415]) errors.add(s);
  if (route.operation.name === 'health_check') errors.add(503);
  for (const extra of route.errors ?? []) errors.add(extra);
  return errors;
}

/**
 * The JSON body of a route's success, around its output schema: the output itself (`raw`), `{data}`
 * or `{message, data}` (api/http/bind-route.ts `envelope`). The document and the tests' response
 * check (test/helpers/response-contract.ts) both use it.
 */
export function successBodySchema(route: Pick<DocumentedRoute, 'envelope' | 'message'>, output: object): object {
  if (route.envelope === 'raw') return output;
  return {
    type: 'object',
    required: route.message ? ['message', 'data'] : ['data'],
    properties: route.message ? { message: { type: 'string' }, data: output } : { data: output },
  };
}

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
    if (route.status !== 204) referenced.add(route.operation.output);

    const isPublic = route.auth.includes('none');
    const security = isPublic
      ? []
      : route.auth.map((scheme) => {
          const name = SECURITY_SCHEMES[scheme].name;
          usedSchemes.add(scheme);
          return { [name]: [] };
        });

    const errors = documentedErrors(route, input);
    for (const status of errors) usedErrors.add(status);

    const outputRef = { $ref: `#/components/schemas/${route.operation.output}` };
    const success = successBodySchema(route, outputRef);

    const successHeaders: Record<string, unknown> = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
    if (route.file) {
      successHeaders['Content-Disposition'] = {
        description: 'attachment, with the file name.',
        schema: { type: 'string' },
      };
    }
    const content: Record<string, unknown> = route.file
      ? Object.fromEntries(route.file.map((type) => [type, { schema: outputRef }]))
      : { 'application/json': { schema: success } };
    if (route.file && route.alternateJson) {
      referenced.add(route.alternateJson);
      content['application/json'] = { schema: { $ref: `#/components/schemas/${route.alternateJson}` } };
    }
    // Every counted route, public ones included (per source IP); health and provider callbacks are not counted.
    if (route.rateLimit !== 'none') {
      for (const name of RATE_LIMIT_HEADERS) successHeaders[name] = { $ref: `#/components/headers/${name}` };
    }
    const status = route.status ?? 200;
    const operation: Record<string, unknown> = {
      operationId,
      summary: route.summary ?? route.operation.summary,
      tags: [route.tag],
      security,
      parameters,
      responses: {
        [String(status)]: {
          description: route.operation.summary,
          headers: successHeaders,
          ...(status === 204 ? {} : { content }),
        },
        ...Object.fromEntries(
          [...errors]
            .sort((a, b) => a - b)
            .map((status) => [String(status), { $ref: `#/components/responses/Error${status}` }]),
        ),
      },
    };
    if (hasBody && route.rawBody) {
      const header = route.rawBody.signatureHeader;
      operation.parameters = [
        ...parameters.filter((p) => p.name !== 'raw_body' && p.name !== 'signature'),
        ...(header
          ? [
              {
                name: header,
                in: 'header',
                required: true,
                description: 'HMAC-SHA256 of the raw body: `sha256=<hex>`, `t=<unix seconds>,v1=<hex>` or bare hex.',
                schema: { type: 'string' },
              },
            ]
          : []),
      ];
      operation.requestBody = {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', description: "The provider's event, verified on its exact bytes." },
          },
        },
      };
    } else if (hasBody) {
      const bodySchema: Record<string, unknown> = { ...input, properties: pick(properties, rest) };
      delete bodySchema.$id;
      bodySchema.required = [...required].filter((name) => !pathParams.includes(name));
      operation.parameters = [
        ...parameters,
        ...(route.respond
          ? []
          : [
              {
                name: 'Idempotency-Key',
                in: 'header',
                required: false,
                description: 'Makes the POST safe to retry: the first response is replayed for 24 hours.',
                schema: { type: 'string', maxLength: 255 },
              },
            ]),
      ];
      operation.requestBody = {
        required: Array.isArray(bodySchema.required) && bodySchema.required.length > 0,
        content: {
          'application/json': { schema: refs(bodySchema, referenced) },
          ...(route.upload
            ? {
                'multipart/form-data': multipartOf(
                  route.upload.field,
                  refs(bodySchema, referenced) as Record<string, unknown>,
                ),
              }
            : {}),
        },
      };
    }
    paths[route.path] ??= {};
    paths[route.path][route.method] = operation;
  }

  Object.assign(paths, MCP_PATHS);
  usedTags.add('MCP');
  usedSchemes.add('api_key');
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
        ...RATE_LIMIT_HEADER_COMPONENTS,
      },
      responses: Object.fromEntries(
        [...usedErrors]
          .sort((a, b) => a - b)
          .map((status) => [
            `Error${status}`,
            {
              description: ERROR_DESCRIPTIONS[status],
              headers: {
                'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
                ...(status === 429
                  ? Object.fromEntries(
                      ['Retry-After', ...RATE_LIMIT_HEADERS].map((name) => [
                        name,
                        { $ref: `#/components/headers/${name}` },
                      ]),
                    )
                  : {}),
              },
              content: {
                'application/json': {
                  // A 422 is a validation failure, or a business refusal with a code
                  // (IDEMPOTENCY_KEY_MISMATCH, SUB_TENANT_HAS_COMPANIES, ...).
                  schema:
                    status === 422
                      ? {
                          oneOf: [
                            { $ref: '#/components/schemas/ValidationErrorResponse' },
                            { $ref: '#/components/schemas/ErrorResponse' },
                          ],
                        }
                      : { $ref: '#/components/schemas/ErrorResponse' },
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

/**
 * The multipart form of a route that takes a file: the same fields (bracket notation for nested
 * ones, or the whole JSON body in `payload`) with the file as binary.
 */
function multipartOf(field: string, schema: Record<string, unknown>) {
  const properties = { ...((schema.properties as Record<string, unknown>) ?? {}) };
  properties[field] = { type: 'string', format: 'binary', description: 'The file (PDF or XML, at most 10 MB).' };
  properties.payload = {
    type: 'string',
    description: 'Alternatively, the whole JSON body as one field; the other fields are then left out.',
  };
  return {
    schema: { ...schema, properties, required: [] },
    encoding: { [field]: { contentType: 'application/pdf, application/xml, text/xml' } },
  };
}
