import { ANY_CALLER } from '../../domain/shared/caller.js';
import { defineQuery } from '../../domain/shared/operation.js';
import type { EmptyInput } from '../../schemas/common.js';
import { buildOpenApiDocument } from '../../schemas/openapi.js';
import type { RouteSpec } from '../http/route-spec.js';

/** The OpenAPI route documents every route of the app it is mounted in, itself included. */
export function openApiRoutes(routesOf: () => readonly RouteSpec[]): RouteSpec[] {
  let cached: Record<string, unknown> | undefined;
  const getOpenApiDocument = defineQuery<EmptyInput, Record<string, unknown>>({
    name: 'get_openapi_document',
    summary: 'The OpenAPI 3.1 description of this API, generated from its route tables and schemas.',
    input: 'EmptyInput',
    output: 'OpenApiDocument',
    callers: ANY_CALLER,
    transactional: false,
    async run(_input, ctx) {
      cached ??= buildOpenApiDocument(routesOf(), ctx.deps.schemas, { serverUrl: ctx.deps.config.publicBaseUrl });
      return cached;
    },
  });
  return [
    {
      method: 'get',
      path: '/api/v1/openapi.json',
      operation: getOpenApiDocument,
      tag: 'Meta',
      auth: ['none'],
      envelope: 'raw',
    },
  ];
}
