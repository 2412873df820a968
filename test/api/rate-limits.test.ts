import { Writable } from 'node:stream';
import test from 'ava';
import { LOGGER } from '../../domain/container.js';
import { createLogger } from '../../domain/shared/logger.js';
import { readJson } from '../helpers/http.js';
import { seedPlatformTenant, seedUser, seedUserKey, seedVerifiedCompany } from '../helpers/identities.js';
import { startProcess, stopProcess, WEB_MAIN } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
test.before(async () => {
  env = await createTestDeps();
});
test.after.always(() => env?.close());

const webEnv = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: env.database.url,
  APP_KEY: env.deps.config.appKey!.toString('hex'),
  PORT: '0',
  HOST: '127.0.0.1',
  ...extra,
});

test.serial('100 requests on one production key over two web processes: exactly 60 pass, 40 get 429', async (t) => {
  const user = await seedUser(env.ownerDb);
  const companyId = await seedVerifiedCompany(env.ownerDb, user.tenantId);
  const key = await seedUserKey(env.ownerDb, user, { environment: 'production', companyId });
  const webs = await Promise.all([
    startProcess(WEB_MAIN, webEnv(), 'listening'),
    startProcess(WEB_MAIN, webEnv(), 'listening'),
  ]);
  try {
    const ports = webs.map((w) => w.message.port as number);
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        fetch(`http://127.0.0.1:${ports[i % 2]}/api/v1/balance`, { headers: { 'X-API-Key': key } }),
      ),
    );
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    t.is(ok.length, 60);
    t.is(limited.length, 40);
    t.true(new Set(ok.map((r) => r.url.split('/')[2])).size === 2, 'both processes answered');

    const nowSeconds = Date.now() / 1000;
    for (const res of ok) {
      t.is(res.headers.get('x-ratelimit-limit'), '60');
      t.is(res.headers.get('x-ratelimit-environment'), 'production');
      const remaining = Number(res.headers.get('x-ratelimit-remaining'));
      t.true(remaining >= 0 && remaining < 60);
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      t.true(reset > nowSeconds && reset <= nowSeconds + 61);
    }
    t.deepEqual(
      ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((a, b) => a - b),
      [...Array(60).keys()],
    );
    for (const res of limited) {
      const retryAfter = Number(res.headers.get('retry-after'));
      t.true(retryAfter >= 1 && retryAfter <= 60);
      t.is(res.headers.get('x-ratelimit-remaining'), '0');
      t.is(res.headers.get('x-ratelimit-limit'), '60');
      const body = await readJson(res);
      t.like(body, {
        error: 'rate_limit_exceeded',
        code: 'RATE_LIMIT_EXCEEDED',
        error_code: 'RATE_LIMIT_EXCEEDED',
        environment: 'production',
        limit_type: 'per_minute',
        limit: 60,
        retry_after: retryAfter,
      });
      t.is(typeof body.message, 'string');
    }
  } finally {
    await Promise.all(webs.map((w) => stopProcess(w.child)));
  }
});

test.serial('a tenant sandbox key has 30/min and 500/h; the tightest window is reported', async (t) => {
  const app = await startTestApp({ env: {} });
  try {
    const tenant = await seedPlatformTenant(app.ownerDb);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 31; i++) {
      last = await app.request('/api/v1/balance', { headers: { 'X-Tenant-Key': tenant.keys.sk_test } });
      statuses.push(last.status);
      if (i === 0) {
        t.is(last.headers.get('x-ratelimit-limit'), '30', 'the minute window (29 left) is tighter than the hour (499)');
        t.is(last.headers.get('x-ratelimit-remaining'), '29');
        t.is(last.headers.get('x-ratelimit-environment'), 'sandbox');
      }
    }
    t.is(statuses.filter((s) => s === 200).length, 30);
    t.is(statuses[30], 429);
    t.like(await readJson(last!), { limit_type: 'per_minute', limit: 30, environment: 'sandbox' });
  } finally {
    await app.close();
  }
});

async function countUntilLimited(app: TestApp, headers: Record<string, string>, max: number): Promise<number> {
  for (let i = 0; i < max; i++) {
    if ((await app.request('/api/v1/balance', { headers })).status === 429) return i;
  }
  return max;
}

test.serial('refusals after the limiter still carry the rate-limit headers', async (t) => {
  const app = await startTestApp({ env: {} });
  try {
    const user = await seedUser(app.ownerDb);
    const res = await app.request('/api/v1/balance/settings', {
      method: 'PUT',
      headers: { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    t.is(res.status, 422);
    t.is(res.headers.get('x-ratelimit-limit'), '60');
    t.is(res.headers.get('x-ratelimit-remaining'), '59');
  } finally {
    await app.close();
  }
});

test.serial('RATE_LIMIT_SCALE multiplies every limit', async (t) => {
  const app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0.01' } });
  try {
    const key = await seedUserKey(app.ownerDb, await seedUser(app.ownerDb));
    // Sandbox API keys: 1000/min × 0.01 = 10.
    t.is(await countUntilLimited(app, { 'X-API-Key': key }, 20), 10);
  } finally {
    await app.close();
  }
});

test.serial('a per-identity override (here by source IP) replaces the limit for that identity', async (t) => {
  const overrides = { 'ip:127.0.0.1': { per_minute: 3 }, 'ip:::ffff:127.0.0.1': { per_minute: 3 } };
  const app = await startTestApp({ env: { RATE_LIMIT_OVERRIDES: JSON.stringify(overrides) } });
  try {
    const key = await seedUserKey(app.ownerDb, await seedUser(app.ownerDb));
    t.is(await countUntilLimited(app, { 'X-API-Key': key }, 10), 3);
  } finally {
    await app.close();
  }
});

test.serial('an exhausted hour window answers 429 with limit_type per_hour', async (t) => {
  const overrides = {
    'ip:127.0.0.1': { per_minute: 10, per_hour: 4 },
    'ip:::ffff:127.0.0.1': { per_minute: 10, per_hour: 4 },
  };
  const app = await startTestApp({ env: { RATE_LIMIT_OVERRIDES: JSON.stringify(overrides) } });
  try {
    const tenant = await seedPlatformTenant(app.ownerDb);
    const headers = { 'X-Tenant-Key': tenant.keys.sk_test };
    t.is(await countUntilLimited(app, headers, 10), 4);
    const res = await app.request('/api/v1/balance', { headers });
    t.like(await readJson(res), { limit_type: 'per_hour', limit: 4 });
    t.true(Number(res.headers.get('retry-after')) > 60);
  } finally {
    await app.close();
  }
});

test.serial('a request refused by the minute window uses up nothing of the hour window', async (t) => {
  const overrides = {
    'ip:127.0.0.1': { per_minute: 3, per_hour: 10 },
    'ip:::ffff:127.0.0.1': { per_minute: 3, per_hour: 10 },
  };
  const app = await startTestApp({ env: { RATE_LIMIT_OVERRIDES: JSON.stringify(overrides) } });
  try {
    const tenant = await seedPlatformTenant(app.ownerDb);
    const headers = { 'X-Tenant-Key': tenant.keys.sk_test };
    const statuses = await Promise.all(
      Array.from({ length: 8 }, async () => (await app.request('/api/v1/balance', { headers })).status),
    );
    t.deepEqual(
      statuses.sort((a, b) => a - b),
      [200, 200, 200, 429, 429, 429, 429, 429],
    );
    const hour = await app
      .ownerDb('rate_limits')
      .where('key', `tenant_sandbox:per_hour:tenant:${tenant.tenantId}:sandbox`)
      .first<{ points: number }>();
    t.is(hour.points, 3, 'only the three admitted requests count in the hour');
  } finally {
    await app.close();
  }
});

test.serial('RATE_LIMIT_SCALE=0 turns limiting off: no 429 and no rate-limit headers', async (t) => {
  const app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  try {
    const tenant = await seedPlatformTenant(app.ownerDb);
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () =>
        app.request('/api/v1/balance', { headers: { 'X-Tenant-Key': tenant.keys.sk_test } }).then((r) => r),
      ),
    );
    t.true(statuses.every((r) => r.status === 200));
    t.is(statuses[0].headers.get('x-ratelimit-limit'), null);
  } finally {
    await app.close();
  }
});

test.serial('the web front logs a warning when RATE_LIMIT_SCALE=0', async (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = await startTestApp({
    env: { RATE_LIMIT_SCALE: '0' },
    override: (container) => container.register(LOGGER, { useValue: createLogger('warn', 'web', sink) }),
  });
  await app.close();
  const warning = lines.map((line) => JSON.parse(line)).find((entry) => /rate limiting is off/.test(entry.msg));
  t.is(warning?.level, 'warn');
});
