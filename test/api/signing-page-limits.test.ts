import test from 'ava';
import { postJson } from '../helpers/http.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({
    env: { RATE_LIMITS: JSON.stringify({ anonymous: { per_minute: 2 }, credentials: { per_minute: 3 } }) },
  });
});
test.after.always(() => app?.close());

const token = 'T'.repeat(43);

test('the signing page counts against the per-address anonymous budget', async (t) => {
  t.is((await app.request(`/sign/${token}`)).status, 404);
  t.is((await app.request(`/sign/${token}`)).status, 404);
  const over = await app.request(`/sign/${token}`);
  t.is(over.status, 429);
  t.truthy(over.headers.get('retry-after'));
});

test('code requests and checks count against the sign-in budget', async (t) => {
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++) {
    const step = i % 2 === 0 ? 'otp' : 'otp/verify';
    const body = i % 2 === 0 ? {} : { code: '000000' };
    statuses.push((await app.request(`/sign/${'U'.repeat(43)}/${step}`, postJson(body))).status);
  }
  t.deepEqual(statuses, [404, 404, 404, 429]);
});
