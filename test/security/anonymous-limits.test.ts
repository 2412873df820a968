import { randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

const withLimits = (limits: Record<string, unknown>) => startTestApp({ env: { RATE_LIMITS: JSON.stringify(limits) } });

async function using(limits: Record<string, unknown>, run: (app: TestApp) => Promise<void>): Promise<void> {
  const app = await withLimits(limits);
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

/** The specification's 429: body shape, Retry-After and the rate-limit headers. */
async function tooMany(t: ExecutionContext, res: Response, limit: number, window = 'per_minute') {
  const body = await expectRefusal(t, res, 429, 'RATE_LIMIT_EXCEEDED');
  const retryAfter = Number(res.headers.get('retry-after'));
  t.true(retryAfter >= 1 && retryAfter <= (window === 'per_minute' ? 60 : 3600), `Retry-After ${retryAfter}`);
  t.like(body, { error: 'rate_limit_exceeded', limit_type: window, limit, retry_after: retryAfter });
  t.is(typeof body.environment, 'string');
  return body;
}

test.serial(
  'public routes without credentials count per IP against `anonymous` (default 120/min): 429 past it',
  async (t) => {
    await using({ anonymous: { per_minute: 5 } }, async (app) => {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await app.request(i % 2 ? '/api/v1/pricing' : '/api/v1/openapi.json');
        statuses.push(res.status);
        t.is(res.headers.get('x-ratelimit-limit'), '5');
      }
      t.deepEqual(statuses, [200, 200, 200, 200, 200]);
      const refused = await app.request('/api/v1/pricing');
      t.is(refused.headers.get('x-ratelimit-remaining'), '0');
      await tooMany(t, refused, 5);
      t.is((await app.request('/sanctum/csrf-cookie')).status, 429, 'every anonymous route shares the budget');
      t.is((await app.request('/api/v1/auth/google')).status, 429);
      // Health stays unlimited: probes must never be taken out of rotation by a 429.
      for (let i = 0; i < 10; i++) t.is((await app.request('/api/health')).status, 200);
    });
  },
);

test.serial('the default anonymous limit is 120/min per IP', async (t) => {
  const app = await startTestApp();
  try {
    const res = await app.request('/api/v1/pricing');
    t.is(res.headers.get('x-ratelimit-limit'), '120');
    t.is(res.headers.get('x-ratelimit-remaining'), '119');
  } finally {
    await app.close();
  }
});

test.serial('credential routes share a stricter per-IP budget (default 10/min and 100/h)', async (t) => {
  const app = await startTestApp();
  try {
    const attempts = [
      () => app.request('/api/v1/auth/login', postJson({ email: `a-${randomUUID()}@example.com`, password: 'x' })),
      () => app.request('/api/v1/auth/register', postJson({})),
      () => app.request('/api/v1/auth/forgot-password', postJson({ email: 'x@example.com' })),
      () => app.request('/api/v1/auth/reset-password', postJson({})),
      () => app.request('/api/v1/auth/verify-email', postJson({ token: 'x' })),
      () => app.request('/api/v1/tenant/auth/login', postJson({ email: 'x@example.com', password: 'x' })),
      () => app.request('/api/v1/tenant/auth/register', postJson({})),
      () => app.request('/api/v1/auth/google/callback?code=x&state=y'),
    ];
    const first = await attempts[0]();
    t.is(first.headers.get('x-ratelimit-limit'), '10', 'the minute window is the tightest');
    for (let i = 1; i < 10; i++) t.not((await attempts[i % attempts.length]()).status, 429, `attempt ${i + 1}`);
    for (const attempt of attempts) await tooMany(t, await attempt(), 10);
    // The general anonymous budget is another one.
    t.is((await app.request('/api/v1/pricing')).status, 200);
  } finally {
    await app.close();
  }
});

test.serial('the hour window of the credential routes', async (t) => {
  await using({ credentials: { per_minute: 100, per_hour: 3 } }, async (app) => {
    const attempt = () => app.request('/api/v1/auth/forgot-password', postJson({ email: 'x@example.com' }));
    for (let i = 0; i < 3; i++) t.is((await attempt()).status, 200);
    await tooMany(t, await attempt(), 3, 'per_hour');
  });
});

const tenantBody = (publishableKey: string) => ({
  publishable_key: publishableKey,
  name: 'New SAS',
  email: `t-${randomUUID()}@example.com`,
  password: 'Sturdy password 42',
  siret: '73282932000074',
});

test.serial('tenant self-registration: limited per partner publishable key', async (t) => {
  await using(
    { credentials: { per_minute: 1000 }, tenant_registration: { per_minute: 3, per_hour: 50 } },
    async (app) => {
      const partner = await seedPlatformTenant(app.ownerDb, { partner: true });
      const other = await seedPlatformTenant(app.ownerDb, { partner: true });
      const register = (key: string) => app.request('/api/v1/tenant/auth/register', postJson(tenantBody(key)));
      for (let i = 0; i < 3; i++) t.is((await register(partner.keys.pk_test)).status, 201);
      const body = await tooMany(t, await register(partner.keys.pk_test), 3);
      t.is(body.environment, 'sandbox');
      t.regex(body.message, /publishable key/);
      t.is((await register(other.keys.pk_test)).status, 201, "another partner's key has its own budget");
      t.is(
        Number((await app.ownerDb('tenants').where({ parent_tenant_id: partner.tenantId }).count({ n: '*' }))[0].n),
        3,
        'nothing past the limit was created',
      );
    },
  );
});

test.serial('tenant self-registration: limited per IP, whatever the key', async (t) => {
  await using({ credentials: { per_minute: 4 } }, async (app) => {
    const partners = [
      await seedPlatformTenant(app.ownerDb, { partner: true }),
      await seedPlatformTenant(app.ownerDb, { partner: true }),
    ];
    const register = (i: number) =>
      app.request('/api/v1/tenant/auth/register', postJson(tenantBody(partners[i % 2].keys.pk_test)));
    for (let i = 0; i < 4; i++) t.is((await register(i)).status, 201);
    await tooMany(t, await register(4), 4);
    const created = await readJson(await app.request('/api/v1/pricing'));
    t.truthy(created.data, 'other anonymous routes still answer');
  });
});
