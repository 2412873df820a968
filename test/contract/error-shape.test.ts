import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import { AppError } from '../../domain/shared/app-error.js';
import { type ErrorBody, errorBody } from '../../domain/shared/error-body.js';
import { ERROR_CODES, type ErrorCode } from '../../domain/shared/error-codes.js';
import { notifyWebhookDisabled } from '../../workers/handlers/notify-webhook-disabled.js';
import { runJob } from '../../workers/run-job.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

// One failure, four surfaces: an HTTP response, a bulk result's item, a stopped job's output and the
// CLI's output all carry the same `{message, error, code, error_code}` (domain/shared/error-body.ts).

const runFile = promisify(execFile);
const BIN = path.resolve('bin/einvoice.js');

let app: TestApp;
let tenant: SeededTenant;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

/** The body is exactly the error shape of its code and message, plus the extra fields given. */
function assertErrorShape(t: ExecutionContext, body: ErrorBody, code: ErrorCode, extra: Record<string, unknown> = {}) {
  t.true(ERROR_CODES.includes(body.code), `${body.code} is in the catalogue`);
  t.deepEqual(body, { ...errorBody(new AppError(code, body.message)), ...extra });
}

const createOne = (key: string, body: unknown) =>
  app.request('/api/v1/tenant/invoices', postJson(body, { 'X-Tenant-Key': key }));
const createBulk = async (key: string, bodies: unknown[]) => {
  const res = await app.request(
    '/api/v1/tenant/invoices/bulk',
    postJson({ invoices: bodies }, { 'X-Tenant-Key': key }),
  );
  return (await readJson(res)).data.results;
};

test.serial('a refusal reads the same over HTTP and in a bulk result', async (t) => {
  const key = tenant.keys.sk_test;
  const on = await app.request(
    '/api/v1/tenant/fiscal/kill-switch/activate',
    postJson({ reason: 'Audit in progress' }, { 'X-Tenant-Key': key }),
  );
  t.is(on.status, 200);
  try {
    const res = await createOne(key, invoiceBody());
    t.is(res.status, 503);
    const http = await readJson(res);
    assertErrorShape(t, http, 'FISCAL_KILLSWITCH_ACTIVE');
    t.is(http.error, 'fiscal_kill_switch_active', "the specification's word, from the catalogue");
    t.regex(http.message, /Audit in progress/);

    const [item] = await createBulk(key, [invoiceBody()]);
    t.is(item.status, 'failed');
    t.deepEqual(item.error, http);
  } finally {
    await app.request(
      '/api/v1/tenant/fiscal/kill-switch/deactivate',
      postJson({ reason: 'Audit closed' }, { 'X-Tenant-Key': key }),
    );
  }
});

test.serial('a validation failure has the same message and errors over HTTP and in a bulk result', async (t) => {
  const key = tenant.keys.sk_test;
  const bad = invoiceBody({ seller_siret: '123' });
  const res = await createOne(key, bad);
  t.is(res.status, 422);
  const http = await readJson(res);
  // Over HTTP, the specification's 422 shape; elsewhere the code stays next to the same message and errors.
  t.deepEqual(Object.keys(http).sort(), ['errors', 'message']);
  t.truthy(http.errors.seller_siret);

  const [item] = await createBulk(key, [bad]);
  assertErrorShape(t, item.error, 'VALIDATION_ERROR', { errors: http.errors });
  t.is(item.error.message, http.message);
});

test('a stopped job records the error shape as its output', async (t) => {
  const endpointId = randomUUID();
  const output = (await runJob(
    notifyWebhookDisabled,
    { id: 'job-1', name: 'notify-webhook-disabled', data: { tenantId: tenant.tenantId, endpointId }, retryCount: 0 },
    app.deps,
  )) as ErrorBody & { stopped: boolean };
  t.true(output.stopped);
  const { stopped: _, ...body } = output;
  assertErrorShape(t, body as ErrorBody, 'NOT_FOUND');
  t.is(body.message, `Webhook endpoint ${endpointId} is not disabled.`);
});

async function cli(...args: string[]): Promise<{ exit: number; stderr: string }> {
  const env = { PATH: process.env.PATH ?? '', DATABASE_URL: app.database.url, LOG_LEVEL: 'silent' };
  try {
    await runFile(process.execPath, [BIN, ...args], { env });
    return { exit: 0, stderr: '' };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { exit: e.code, stderr: e.stderr };
  }
}

test('the CLI prints the error shape in JSON, and the same code and message in text', async (t) => {
  const args = ['balance', 'credit', '--tenant', randomUUID(), '--amount', '1', '--reason', 'x'];
  const json = await cli(...args);
  t.is(json.exit, 1);
  const { error } = JSON.parse(json.stderr);
  assertErrorShape(t, error, 'NOT_FOUND');

  const text = await cli('--output', 'text', ...args);
  t.is(text.exit, 1);
  t.is(text.stderr, `error NOT_FOUND: ${error.message}\n`);

  const invalid = ['balance', 'credit', '--tenant', randomUUID(), '--amount', '1.005', '--reason', 'x'];
  const invalidJson = JSON.parse((await cli(...invalid)).stderr).error;
  assertErrorShape(t, invalidJson, 'VALIDATION_ERROR', { errors: { amount: ['must have at most 2 decimals'] } });
  t.is(
    (await cli(...invalid, '--output=text')).stderr,
    `error VALIDATION_ERROR: ${invalidJson.message}\n  amount: must have at most 2 decimals\n`,
  );

  // Text mode prints results too, one `path: value` line per field.
  const key = await runFile(process.execPath, [BIN, '--output', 'text', 'key', 'generate'], { env: { PATH: '' } });
  t.regex(key.stdout, /^app_key: base64:[A-Za-z0-9+/=]{44}\n$/);

  const usage = await cli('tenant', 'explode');
  t.is(usage.exit, 2);
  const usageError = JSON.parse(usage.stderr.slice(0, usage.stderr.indexOf('\n}\n') + 2)).error;
  assertErrorShape(t, usageError, 'BAD_REQUEST');
  t.is((await cli('--output', 'yaml', 'tenant', 'explode')).exit, 2);
});
