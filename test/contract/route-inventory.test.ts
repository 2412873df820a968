import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { ROUTES } from '../../api/routes/index.js';
import { openApiRoutes } from '../../api/routes/openapi.routes.js';
import { readJson } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The router against the specification's route list (`../shared/spec/routes.tsv`, beside the
 * repository, or SPEC_ROUTES): every route the specification publishes is served, by method and
 * path. Parameter names do not count (the specification calls one parameter `{key}` in one line and
 * `{id}` in the next): `{rule}` serves `{key}`. Routes outside the tables (pages, the MCP
 * transport) are asked of the running app.
 *
 * Routes known to be missing are listed in PENDING with the feature that brings them. The test
 * fails on any other missing route, and on a PENDING route that now exists (take it out of the list).
 */
const PENDING: Record<string, string> = {};

function specRoutesPath(): string {
  const root = fileURLToPath(new URL('../../../', import.meta.url)); // dist/test/contract → repository
  const candidates = [process.env.SPEC_ROUTES, `${root}../shared/spec/routes.tsv`];
  const found = candidates.find((path) => path && existsSync(path));
  if (!found)
    throw new Error(`the specification's route list was not found (tried ${candidates.filter(Boolean).join(', ')})`);
  return found;
}

/** `METHOD /path` with every `{parameter}` written `{}`. */
const shape = (route: string): string => route.replace(/\{[^}]*\}/g, '{}');

/** The specification's routes, `METHOD /path` (columns: section, method, path, note; a header line first). */
function specRoutes(): string[] {
  const lines = readFileSync(specRoutesPath(), 'utf8').split('\n').slice(1);
  return lines
    .map((line) => line.split('\t'))
    .filter((columns) => columns.length >= 3 && columns[1].trim() !== '')
    .map(([, method, path]) => `${method.trim().toUpperCase()} ${path.trim()}`);
}

/** The route tables (api/routes/). */
const tabled = new Set(
  [...ROUTES, ...openApiRoutes(() => ROUTES)].map((route) => shape(`${route.method.toUpperCase()} ${route.path}`)),
);

/**
 * A route outside the tables (the pages: the signing page, the onboarding callback page, the MCP
 * transport) is served when the real app does not answer it with its "No route" 404.
 */
let app: TestApp;
const servedOutsideTables = new Set<string>();
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  for (const route of specRoutes().filter((r) => !tabled.has(shape(r)))) {
    const [method, path] = route.split(' ');
    const res = await app.request(path.replace(/\{[^}]*\}/g, '00000000-0000-4000-8000-000000000000'), {
      method,
      redirect: 'manual',
      ...(method === 'GET' || method === 'DELETE'
        ? {}
        : { headers: { 'Content-Type': 'application/json' }, body: '{}' }),
    });
    const body = res.headers.get('content-type')?.includes('json')
      ? await readJson(res).catch(() => null)
      : await res.text();
    const noRoute = res.status === 404 && typeof body?.message === 'string' && body.message.startsWith('No route ');
    if (!noRoute) servedOutsideTables.add(shape(route));
  }
});
test.after.always(() => app?.close());

const isServed = (route: string) => tabled.has(shape(route)) || servedOutsideTables.has(shape(route));

test('the route list is read: every line is a method and a path', (t) => {
  const routes = specRoutes();
  t.true(routes.length > 150, `${routes.length} routes`);
  for (const route of routes) t.regex(route, /^(GET|POST|PUT|PATCH|DELETE) \/\S*$/);
});

test('every route of the specification is served, but the PENDING ones', (t) => {
  const missing = specRoutes().filter((route) => !isServed(route) && !Object.hasOwn(PENDING, route));
  t.deepEqual(missing, [], 'routes of ../shared/spec/routes.tsv the router does not serve');
});

test('a PENDING route is still missing and still in the specification', (t) => {
  const spec = new Set(specRoutes());
  const nowServed = Object.keys(PENDING).filter(isServed);
  t.deepEqual(nowServed, [], 'served now: take them out of PENDING');
  const unknown = Object.keys(PENDING).filter((route) => !spec.has(route));
  t.deepEqual(unknown, [], 'not in the specification: take them out of PENDING');
});
