import test from 'ava';
import { closeDay, getFiscal, invoiceAt } from '../helpers/fiscal-closings.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { opensslVerifyToken } from '../helpers/openssl-ts.js';
import { startProcess, stopProcess, WORKER_MAIN, waitFor } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

const clock = new TestClock('2026-04-01T10:00:00Z');
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' }, override: withClock(clock) });
});
test.after.always(() => app?.close());

test('a worker process picks up the anchor job queued with a closing and anchors it', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  await invoiceAt(app, clock, key, '2026-04-01T10:00:00Z');
  clock.set('2026-04-02T00:30:00Z');
  const closing = (await closeDay(app, key)).body.data;
  t.is(closing.anchor.status, 'pending');

  const { child } = await startProcess(
    WORKER_MAIN,
    { DATABASE_URL: app.database.url, APP_KEY: app.deps.config.appKey!.toString('hex') },
    'ready',
  );
  try {
    const anchor = await waitFor(async () => {
      const row = (await getFiscal(app, key, 'anchors')).body.data[0];
      return row.status !== 'pending' && row;
    }, 30_000);
    t.like(anchor, { status: 'anchored', verified: true, entity_id: closing.id, data_hash: closing.closing_hash });
    const ca = await app.request(`/api/v1/tenant/fiscal/anchors/${anchor.id}/ca-certificate`, {
      headers: { 'X-Tenant-Key': key },
    });
    const verified = await opensslVerifyToken(
      Buffer.from(anchor.token, 'base64'),
      closing.closing_hash,
      await ca.text(),
    );
    t.true(verified.ok, verified.output);
  } finally {
    t.is(await stopProcess(child), 0);
  }
});
