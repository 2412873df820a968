import { createHmac } from 'node:crypto';
import { type RouteSpec, takesBody } from '../../../api/http/route-spec.js';
import type { Environment } from '../../../domain/shared/caller.js';
import type { SchemaRegistry } from '../../../schemas/registry.js';
import { itemsFor } from '../../helpers/credit-notes.js';
import { invoiceBody } from '../../helpers/invoices.js';
import type { FuzzWorld, Resource } from './fuzz-world.js';
import { uuidFrom, validValue } from './generate-body.js';
import { multipartBody } from './multipart-body.js';
import { type FuzzBody, MUTATIONS } from './mutate-body.js';
import { createPrng, type Prng } from './prng.js';

/** The secret the fuzzed app shares with SuperPDP, so signed callbacks get past their signature. */
export const CALLBACK_SECRET = 'fuzz-callback-secret';

export interface FuzzCase {
  route: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: FuzzBody;
  /** A credential was sent: a 401 means the fuzzer failed to get past authentication. */
  authenticated: boolean;
}

/**
 * The mutations each route gets, in order: every kind at least once, valid bodies and the cheap
 * structural breaks more often; multipart/form-data too (a file for the routes that take one). 20 bodies a route.
 */
export type Mutation = keyof typeof MUTATIONS | 'multipart';

export const SCHEDULE: readonly Mutation[] = [
  'valid',
  'valid',
  'valid',
  'wrongType',
  'wrongType',
  'nullValue',
  'missingField',
  'missingField',
  'extraField',
  'extraField',
  'hugeString',
  'deepNesting',
  'oddString',
  'oddString',
  'oddNumber',
  'oddNumber',
  'duplicateKey',
  'notJson',
  'wrongContentType',
  'multipart',
];

export const routeId = (route: Pick<RouteSpec, 'method' | 'path'>) => `${route.method.toUpperCase()} ${route.path}`;

/** Every route of the tables that takes a body (POST, PUT, PATCH). */
export const bodyRoutes = (routes: readonly RouteSpec[]) => routes.filter((route) => takesBody(route.method));

/** A PRNG per route, from the run's seed: one route's failure replays alone. */
export function routePrng(seed: number, route: RouteSpec): Prng {
  let hash = seed >>> 0;
  for (const char of routeId(route)) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return createPrng(hash);
}

const pathNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

/** A real id of the resource the segment before `{name}` names, an unknown one, or a malformed one. */
function fillPath(path: string, world: FuzzWorld, environment: Environment, rng: Prng): string {
  return path.replace(/([\w-]+)\/\{(\w+)\}/g, (_, segment: string) => {
    const real = world.ids[environment][segment as Resource];
    const roll = rng.next();
    const id =
      real && roll < 0.7
        ? real
        : roll < 0.9
          ? segment === 'rules'
            ? 'custom.unknown'
            : uuidFrom(rng)
          : rng.pick(['not-a-uuid', '..%2F..', '%00', '0', 'ffffffff-ffff-ffff-ffff-ffffffffffff', 'a'.repeat(300)]);
    return `${segment}/${id}`;
  });
}

/** Bodies that get deep into an operation: what the generator's random values would not (totals that add up). */
function exampleBody(route: RouteSpec, world: FuzzWorld, environment: Environment, rng: Prng): unknown {
  const number = () => `FZ-${rng.int(0, 1e9)}`;
  switch (route.operation.input) {
    case 'CreateInvoiceInput':
    case 'CreateTenantInvoiceInput':
      return invoiceBody({ invoice_number: number() });
    case 'BulkCreateInvoicesInput':
      return { invoices: [invoiceBody({ invoice_number: number() }), invoiceBody({ invoice_number: number() })] };
    case 'LoginUserInput':
      return { email: world.user.email, password: world.user.password };
    case 'LoginTenantInput':
      return { email: world.tenant.email, password: world.tenant.password };
    case 'CreateCreditNoteInput':
      return {
        invoice_id: world.invoices[environment].id,
        reason: 'Geste',
        items: itemsFor(world.invoices[environment], 0.01),
      };
    default:
      return undefined;
  }
}

/** The signed provider callbacks take any JSON: a trigger as SuperPDP sends it. */
const callbackBody = (rng: Prng) => ({
  id: `evt_${rng.int(0, 1e9)}`,
  type: rng.pick(['invoice.status_changed', 'invoice.received', 'document.ready']),
  data: { invoice_id: rng.pick(['pdp-1', 42, 'unknown']) },
});

/** Ids and keys the body names (invoice_id, invoice_ids, sub_tenant_id, publishable_key): real ones of the caller more often than not. */
function withRealIds(body: unknown, world: FuzzWorld, environment: Environment, rng: Prng): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out = body as Record<string, unknown>;
  const ids = world.ids[environment];
  if (typeof out.invoice_id === 'string' && rng.chance(0.7)) out.invoice_id = ids.invoices;
  if (Array.isArray(out.invoice_ids) && rng.chance(0.7)) out.invoice_ids = [ids.invoices];
  if (typeof out.sub_tenant_id === 'string' && rng.chance(0.7)) out.sub_tenant_id = ids['sub-tenants'];
  if (typeof out.publishable_key === 'string' && rng.chance(0.7)) {
    out.publishable_key = environment === 'sandbox' ? world.tenant.keys.pk_test : world.tenant.keys.pk_live;
  }
  return out;
}

export function buildCase(
  route: RouteSpec,
  mutation: Mutation,
  world: FuzzWorld,
  schemas: SchemaRegistry,
  rng: Prng,
): FuzzCase {
  const environment: Environment = route.environment ?? rng.pick(['sandbox', 'production'] as const);
  const path = fillPath(route.path, world, environment, rng);
  const base = route.rawBody
    ? callbackBody(rng)
    : ((rng.chance(0.5) ? exampleBody(route, world, environment, rng) : undefined) ??
      withRealIds(
        validValue(schemas.get(route.operation.input), (id) => schemas.get(id), rng, pathNames(route.path)),
        world,
        environment,
        rng,
      ));
  const body =
    mutation === 'multipart'
      ? multipartBody(base, route.upload, rng)
      : MUTATIONS[mutation]!(structuredClone(base), rng);
  const headers: Record<string, string> = {};
  if (body.contentType) headers['Content-Type'] = body.contentType;
  // A quarter of the requests claim an Idempotency-Key, so the claim is fuzzed with the rest.
  if (rng.chance(0.25)) headers['Idempotency-Key'] = `fuzz-${rng.int(0, 2 ** 30)}`;
  let authenticated = true;
  if (route.rawBody && !route.rawBody.signatureHeader) {
    authenticated = false; // the proof is a token of the URL the fuzzer does not know
  } else if (route.rawBody?.signatureHeader) {
    const mac = createHmac('sha256', CALLBACK_SECRET).update(Buffer.from(body.text)).digest('hex');
    headers[route.rawBody.signatureHeader] = `sha256=${mac}`;
  } else if (route.auth.includes('tenant_key') || route.auth.includes('api_key')) {
    headers['X-Tenant-Key'] = environment === 'sandbox' ? world.tenant.keys.sk_test : world.tenant.keys.sk_live;
  } else if (route.auth.includes('bearer')) {
    headers.Authorization = `Bearer ${world.user.token}`;
  } else {
    authenticated = false;
  }
  return { route: routeId(route), method: route.method.toUpperCase(), path, headers, body, authenticated };
}

/** The case as a line to paste into a bug report. */
export function describeCase(fuzzCase: FuzzCase): string {
  const text = fuzzCase.body.text;
  const shown = text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
  const idempotency = fuzzCase.headers['Idempotency-Key']
    ? ` Idempotency-Key: ${fuzzCase.headers['Idempotency-Key']}`
    : '';
  return `${fuzzCase.method} ${fuzzCase.path} [${fuzzCase.body.kind}: ${fuzzCase.body.detail}] Content-Type: ${fuzzCase.body.contentType}${idempotency} body: ${shown}`;
}
