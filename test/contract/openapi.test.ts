import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { ROUTES } from '../../api/routes/index.js';
import { getPricing } from '../../domain/platform/operations/get-pricing.js';
import { ALL_SCHEMAS } from '../../schemas/index.js';
import { buildOpenApiDocument } from '../../schemas/openapi.js';
import { MCP_PATHS } from '../../schemas/openapi-mcp.js';
import { createSchemaRegistry } from '../../schemas/registry.js';
import { readJson } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const run = promisify(execFile);
// biome-ignore lint/suspicious/noExplicitAny: the document is walked generically
type Doc = any;

let app: TestApp;
let served: Doc;
test.before(async () => {
  app = await startTestApp();
  served = await readJson(await app.request('/api/v1/openapi.json'));
});
test.after.always(() => app?.close());

/** Runs the Redocly CLI (recommended rules) on a document and returns its totals. */
async function redoclyLint(doc: Doc): Promise<{ errors: number; warnings: number; problems: unknown[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'openapi-'));
  await writeFile(path.join(dir, 'openapi.json'), JSON.stringify(doc));
  // The committed exceptions, each forced by a published path (see the file).
  await copyFile(path.resolve('schemas/openapi-lint-ignore.yaml'), path.join(dir, '.redocly.lint-ignore.yaml'));
  const bin = path.resolve('node_modules/.bin/redocly');
  const out = await run(bin, ['lint', 'openapi.json', '--format=json'], {
    cwd: dir,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
  }).catch((err: { stdout: string }) => ({ stdout: err.stdout }));
  const report = JSON.parse(out.stdout);
  return { errors: report.totals.errors, warnings: report.totals.warnings, problems: report.problems };
}

test('the served document is OpenAPI 3.1, version 1.2.1, and lints clean with @redocly/cli', async (t) => {
  t.is(served.openapi, '3.1.0');
  t.is(served.info.version, '1.2.1');
  const report = await redoclyLint(served);
  t.deepEqual(report.problems, []);
  t.is(report.errors, 0);
  t.is(report.warnings, 0);
});

test('every route of the tables appears, with its security and error responses', (t) => {
  const routes = [...ROUTES, { method: 'get', path: '/api/v1/openapi.json', auth: ['none'] }];
  for (const route of routes) {
    const operation = served.paths[route.path]?.[route.method];
    t.truthy(operation, `${route.method} ${route.path}`);
    t.true(Array.isArray(operation.security), `${route.path} declares its security`);
    t.truthy(operation.summary);
    t.truthy(operation.responses['404'] && operation.responses['500'], `${route.path} documents its errors`);
  }
  // Beside the route tables: the MCP server's paths (schemas/openapi-mcp.ts), at the root and under /api.
  const mcp = Object.values(MCP_PATHS).flatMap((p) => Object.keys(p));
  t.is(mcp.length, 8);
  t.is(Object.values(served.paths).flatMap((p) => Object.keys(p as object)).length, routes.length + mcp.length);
});

test('authenticated routes declare their schemes and 401/403; bodies their 400/413/415/422', async (t) => {
  const routes = [
    {
      method: 'post',
      path: '/api/v1/things/{id}',
      operation: getPricing,
      tag: 'Things',
      auth: ['tenant_key', 'api_key'],
    },
  ];
  const doc: Doc = buildOpenApiDocument(routes, createSchemaRegistry(ALL_SCHEMAS));
  const operation = doc.paths['/api/v1/things/{id}'].post;
  t.deepEqual(operation.security, [{ TenantKey: [] }, { ApiKey: [] }]);
  for (const status of ['400', '401', '403', '413', '415', '422']) t.truthy(operation.responses[status], status);
  t.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['ApiKey', 'TenantKey']);
  t.like(operation.parameters[0], { name: 'id', in: 'path', required: true });
  t.is((await redoclyLint(doc)).errors, 0);
});

test('the credit-note download answers the file (PDF or XML), or its link as JSON with link=true', (t) => {
  const operation = served.paths['/api/v1/credit-notes/{id}/download'].get;
  const content = operation.responses['200'].content;
  t.deepEqual(Object.keys(content).sort(), ['application/json', 'application/pdf', 'application/xml']);
  t.is(content['application/pdf'].schema.$ref, '#/components/schemas/CreditNoteFile');
  t.is(content['application/json'].schema.$ref, '#/components/schemas/DownloadLink');
  t.truthy(served.components.schemas.DownloadLink);
  t.truthy(operation.responses['200'].headers['Content-Disposition']);
  t.deepEqual(
    operation.parameters.map((p: Doc) => [p.name, p.in]),
    [
      ['id', 'path'],
      ['type', 'query'],
      ['link', 'query'],
    ],
  );
  t.truthy(operation.responses['409'], 'files not ready or failed');
});
