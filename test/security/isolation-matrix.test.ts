import test from 'ava';
import type { RouteSpec } from '../../api/http/route-spec.js';
import { TOOLS } from '../../api/mcp/tools/index.js';
import { ROUTES } from '../../api/routes/index.js';
import { readJson } from '../helpers/http.js';
import { sample } from '../helpers/schema-sample.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { ACTORS, type Actor, KEY_ACTORS, seedActors, seedWorldA, type WorldA } from './isolation/world.js';
import {
  allowed,
  BODY_ID_ROUTES,
  BULK_ROUTES,
  bindings,
  bodyFor,
  bulkLeak,
  EXEMPT,
  fill,
  LIST_FILTERS,
  MCP_LEFT_OUT,
  markersFor,
  mcpVariants,
  NOT_SEEDED,
} from './isolation-matrix.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC bodies are read loosely
type Json = any;

/**
 * The isolation matrix: world A holds one of each resource; every other actor (world B's user
 * and tenant in both environments, A's other environment, sub-tenant and company, A's dead keys,
 * an administrator, nobody) calls every route that takes an id (with A's id) or lists, and every
 * MCP tool that takes an id or lists. A leak is a 2xx that serves or changes A's resource, or a 2xx
 * whose body carries one of A's ids or distinctive values. See docs/security.md, "Isolation matrix".
 */
let app: TestApp;
let a: WorldA;
let credentials: Record<Actor, Record<string, string>>;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  a = await seedWorldA(app);
  credentials = await seedActors(app, a);
});
test.after.always(() => app?.close());

interface Cell {
  label: string;
  actor: Actor;
  run: () => Promise<{ status: number; text: string; served: boolean }>;
  /** The request aims at A's resource: any success is a leak. */
  foreign: boolean;
}

/** Runs cells `width` at a time. */
async function pool<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

function leakOf(cell: Cell, route: string, outcome: { status: number; text: string; served: boolean }) {
  if (!outcome.served) return null;
  const why = allowed(route, cell.actor);
  if (why) return null;
  if (BULK_ROUTES.has(route)) {
    const leak = bulkLeak(outcome.text, a);
    return leak ? `${cell.label} × ${cell.actor}: ${leak}` : null;
  }
  if (cell.foreign) return `${cell.label} × ${cell.actor}: ${outcome.status} on A's resource`;
  const seen = markersFor(cell.actor, a).filter((marker) => outcome.text.includes(marker));
  return seen.length ? `${cell.label} × ${cell.actor}: ${outcome.status} carries A's ${seen.join(', ')}` : null;
}

/** The list filters of A's ids that a list route's input accepts. */
function filtersOf(route: RouteSpec): string[] {
  const input = typeof route.operation?.input === 'string' ? route.operation.input : null;
  const properties =
    input && app.deps.schemas.has(input) ? ((app.deps.schemas.get(input) as Json).properties ?? {}) : {};
  return Object.entries(LIST_FILTERS(a))
    .filter(([name]) => name in properties)
    .map(([name, value]) => `${name}=${value}`);
}

const routeId = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`;

test('HTTP: every route that takes an id or lists, for every actor, with A ids: 0 leaks', async (t) => {
  const cells: { cell: Cell; route: string }[] = [];
  const exempt: string[] = [];
  for (const route of ROUTES) {
    const id = routeId(route);
    const method = route.method.toUpperCase();
    const hasParams = route.path.includes('{');
    const isList = method === 'GET' && !hasParams;
    if (EXEMPT[id]) {
      exempt.push(id);
      continue;
    }
    if (!hasParams && !isList && !BODY_ID_ROUTES.has(id)) continue;
    const body = bodyFor(id, a);
    const sends = method !== 'GET' && method !== 'DELETE';
    const targets = hasParams
      ? bindings(route.path, a).map((binding) => fill(route.path, binding))
      : isList
        ? [route.path, ...filtersOf(route).map((q) => `${route.path}?${q}`)].map((path) => ({ path, foreign: false }))
        : [{ path: route.path, foreign: true }];
    for (const target of targets) {
      const foreign = target.foreign && !NOT_SEEDED[route.path];
      for (const actor of ACTORS) {
        cells.push({
          route: id,
          cell: {
            label: `${method} ${target.path}`,
            actor,
            foreign,
            run: async () => {
              const res = await app.request(target.path, {
                method,
                headers: { ...credentials[actor], ...(sends ? { 'Content-Type': 'application/json' } : {}) },
                body: sends ? JSON.stringify(body ?? {}) : undefined,
                redirect: 'manual',
              });
              const text = Buffer.from(await res.arrayBuffer()).toString('latin1');
              return { status: res.status, text, served: res.status >= 200 && res.status < 300 };
            },
          },
        });
      }
    }
  }
  const leaks: string[] = [];
  const statuses: Record<number, number> = {};
  /** Routes that check their input before the id: some actors got 422 there, not 404. */
  const checkedFirst = new Set<string>();
  await pool(cells, 4, async ({ cell, route }) => {
    const outcome = await cell.run();
    statuses[outcome.status] = (statuses[outcome.status] ?? 0) + 1;
    if (outcome.status === 422) checkedFirst.add(route);
    const leak = leakOf(cell, route, outcome);
    if (leak) leaks.push(leak);
  });
  const routes = new Set(cells.map((c) => c.route)).size;
  t.log(
    `isolation matrix (HTTP): ${routes} routes × ${ACTORS.length} actors = ${routes * ACTORS.length} (route, actor) cells ` +
      `checked in ${cells.length} requests, ${leaks.length} leaks; statuses ${JSON.stringify(statuses)}; ` +
      `${exempt.length} routes exempt (tokens, not ids); 422 before the id on ${[...checkedFirst].sort().join(', ')}`,
  );
  t.true(routes > 150, 'the matrix covers the routes');
  t.deepEqual(leaks, []);
});

test('control: A ids are real, served to their owner, and an owner list carries them', async (t) => {
  // Without this, a matrix of 404s could come from ids or paths that name nothing.
  const { ids, owner } = a;
  const tenant = { 'X-API-Key': owner.tenantKey };
  const reads: [string, Record<string, string>][] = [
    [`/api/v1/tenant/sub-tenants/${ids.subTenant}`, tenant],
    [`/api/v1/tenant/sub-tenants/by-external-id/${ids.subTenantExternal}`, tenant],
    [`/api/v1/invoices/${ids.tenantInvoice}`, tenant],
    [`/api/v1/credit-notes/${ids.creditNote}`, tenant],
    [`/api/v1/signatures/${ids.signature}`, tenant],
    [`/api/v1/tenant/invoices/incoming/${ids.incoming}`, tenant],
    [`/api/v1/tenant/sub-tenants/${ids.subTenant}/quotes/${ids.quote}`, tenant],
    [`/api/v1/tenant/kyb/documents/${ids.kybDocument}`, tenant],
    [`/api/v1/tenant/onboarding/sessions/${ids.tenantOnboardingSession}`, tenant],
    [`/api/v1/onboarding/sessions/${ids.onboardingSession}`, { 'X-Publishable-Key': owner.publishableKey }],
    [`/api/v1/invoices/${ids.userInvoice}`, { 'X-API-Key': owner.userKey }],
    [`/api/v1/companies/${ids.company}`, { Authorization: `Bearer ${owner.userToken}` }],
    [`/api/v1/api-keys/${ids.userKey}`, { Authorization: `Bearer ${owner.userToken}` }],
    [`/api/v1/webhooks/${ids.webhook}`, { Authorization: `Bearer ${owner.userToken}` }],
  ];
  for (const [path, headers] of reads) {
    const res = await app.request(path, { headers });
    const text = await res.text();
    t.is(res.status, 200, path);
    t.true(text.includes(path.slice(path.lastIndexOf('/') + 1)), `${path} names its resource`);
  }
  const list = await (await app.request('/api/v1/invoices', { headers: tenant })).text();
  t.true(list.includes(ids.tenantInvoice), "the owner's list carries A's invoice: the body scan would see it");
  // The judge itself: the owner's answers, were another actor to get them, are leaks.
  const asStranger = (foreign: boolean): Cell => ({
    label: 'GET /api/v1/invoices',
    actor: 'b_tenant_sandbox',
    foreign,
    run: async () => ({ status: 200, text: list, served: true }),
  });
  const outcome = { status: 200, text: list, served: true };
  t.truthy(leakOf(asStranger(false), 'GET /api/v1/invoices', outcome), 'a list carrying A ids is a leak');
  t.truthy(
    leakOf(asStranger(true), 'GET /api/v1/invoices/{id}', { ...outcome, text: '{}' }),
    'a 2xx on A id is a leak',
  );
  t.is(leakOf(asStranger(true), 'GET /api/v1/invoices/{id}', { ...outcome, status: 404, served: false }), null);
});

async function openMcp(headers: Record<string, string>) {
  const post = (body: unknown, session?: string) =>
    app.request('/mcp', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', ...(session ? { 'Mcp-Session-Id': session } : {}) },
      body: JSON.stringify(body),
    });
  const init = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
  const session = init.headers.get('mcp-session-id') as string;
  return async (body: unknown): Promise<Json> => readJson(await post(body, session));
}

test('MCP: every tool that takes an id or lists, for every key holder, with A ids: 0 leaks', async (t) => {
  const calls = Object.fromEntries(
    await Promise.all(KEY_ACTORS.map(async (actor) => [actor, await openMcp(credentials[actor])])),
  ) as Record<(typeof KEY_ACTORS)[number], (body: unknown) => Promise<Json>>;
  const listed: Json[] = (await calls.b_tenant_sandbox({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).result.tools;
  t.is(listed.length, TOOLS.length);
  const cells: {
    label: string;
    actor: (typeof KEY_ACTORS)[number];
    args: Record<string, unknown>;
    foreign: boolean;
  }[] = [];
  for (const tool of listed) {
    if (MCP_LEFT_OUT[tool.name]) continue;
    const base = sample(tool.inputSchema) as Record<string, unknown>;
    for (const args of mcpVariants(tool.name, base, a)) {
      const foreign = Object.values(args).some((v) => typeof v === 'string' && a.markers.includes(v));
      for (const actor of KEY_ACTORS)
        cells.push({ label: `${tool.name}(${JSON.stringify(args)})`, actor, args, foreign });
    }
  }
  const leaks: string[] = [];
  let served = 0;
  await pool(cells, 4, async (cell) => {
    const name = cell.label.slice(0, cell.label.indexOf('('));
    const body = await calls[cell.actor]({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name, arguments: cell.args },
    });
    if (body.error || body.result.isError) return;
    served += 1;
    if (cell.foreign) {
      leaks.push(`${cell.label} × ${cell.actor}: served A's resource`);
      return;
    }
    const text = JSON.stringify(body.result);
    const seen = markersFor(cell.actor, a).filter((marker) => text.includes(marker));
    if (seen.length) leaks.push(`${cell.label} × ${cell.actor}: carries A's ${seen.join(', ')}`);
  });
  const tools = new Set(cells.map((c) => c.label.slice(0, c.label.indexOf('(')))).size;
  t.log(
    `isolation matrix (MCP): ${tools} tools × ${KEY_ACTORS.length} key holders = ${tools * KEY_ACTORS.length} (tool, actor) ` +
      `cells checked in ${cells.length} calls (${served} served without A's data), ${leaks.length} leaks`,
  );
  t.deepEqual(leaks, []);
});
