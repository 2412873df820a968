import test, { type ExecutionContext } from 'ava';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant, seedUser } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The client IP is what login throttling, `last_used_ip`, the audit trail and anonymous
 * idempotency scopes record. Behind N trusted proxies it is the N-th X-Forwarded-For address from
 * the right (the one the outermost trusted proxy saw); addresses left of it are the client's words.
 */
const FORGED = '6.6.6.6';
const PROXY_SAW = '203.0.113.9';
const SOCKET = '127.0.0.1';

const behind = (hops: string | null) => startTestApp({ env: hops === null ? {} : { TRUSTED_PROXY_HOPS: hops } });

async function recordedIps(t: ExecutionContext, app: TestApp, forwardedFor: string) {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const headers = { 'X-Forwarded-For': forwardedFor };
  const invoice = await createInvoice(
    (path, init) => app.request(path, { ...init, headers: { ...(init?.headers as object), ...headers } }),
    tenant.keys.sk_test,
  );
  const key = await app
    .ownerDb('api_keys')
    .where({ tenant_id: tenant.tenantId, environment: 'sandbox', kind: 'secret' })
    .first<{ last_used_ip: string | null }>('last_used_ip');
  const audit = await app
    .ownerDb('audit_entries')
    .where({ entity_id: invoice.id })
    .first<{ actor_ip: string | null }>();
  t.truthy(audit, 'the creation is in the audit trail');
  return { lastUsedIp: key.last_used_ip, actorIp: audit.actor_ip };
}

/** Fails sign-ins with a different forged address each time; returns the throttle counters' keys. */
async function throttleKeys(app: TestApp, forwardedFor: (i: number) => string) {
  const user = await seedUser(app.ownerDb);
  for (let i = 0; i < 3; i++) {
    const res = await app.request(
      '/api/v1/auth/login',
      postJson({ email: user.email, password: 'wrong password!' }, { 'X-Forwarded-For': forwardedFor(i) }),
    );
    await readJson(res);
  }
  const rows = await app
    .ownerDb('rate_limits')
    .where('key', 'like', `login_failures:user:${user.email.toLowerCase()}:%`)
    .select<{ key: string; points: number }[]>('key', 'points');
  return rows.map((r) => ({ ip: r.key.split(':').pop(), points: r.points }));
}

test.serial('behind one trusted proxy, the address it saw is recorded, never the forged one', async (t) => {
  const app = await behind('1');
  try {
    t.deepEqual(await recordedIps(t, app, `${FORGED}, ${PROXY_SAW}`), { lastUsedIp: PROXY_SAW, actorIp: PROXY_SAW });
    // rotating the forged part does not make a new throttling identity
    t.deepEqual(await throttleKeys(app, (i) => `10.0.0.${i}, ${PROXY_SAW}`), [{ ip: PROXY_SAW, points: 3 }]);
  } finally {
    await app.close();
  }
});

test.serial(
  'with no trusted proxy (the default), X-Forwarded-For is ignored: the socket peer is recorded',
  async (t) => {
    const app = await behind(null);
    try {
      t.is(app.deps.config.trustedProxyHops, 0);
      t.deepEqual(await recordedIps(t, app, `${FORGED}, ${PROXY_SAW}`), { lastUsedIp: SOCKET, actorIp: SOCKET });
      t.deepEqual(await throttleKeys(app, (i) => `10.0.0.${i}`), [{ ip: SOCKET, points: 3 }]);
    } finally {
      await app.close();
    }
  },
);

test.serial('behind two trusted proxies, the second address from the right is the client', async (t) => {
  const app = await behind('2');
  try {
    t.deepEqual(await recordedIps(t, app, `${FORGED}, ${PROXY_SAW}, 10.1.1.1`), {
      lastUsedIp: PROXY_SAW,
      actorIp: PROXY_SAW,
    });
  } finally {
    await app.close();
  }
});

test.serial('anonymous Idempotency-Key scopes follow the same address', async (t) => {
  const app = await behind('1');
  try {
    const key = `idem-${Date.now()}`;
    const send = (forged: string) =>
      app.request(
        '/api/v1/auth/forgot-password',
        postJson(
          { email: 'nobody@example.com' },
          { 'Idempotency-Key': key, 'X-Forwarded-For': `${forged}, ${PROXY_SAW}` },
        ),
      );
    const first = await send('1.1.1.1');
    const second = await send('2.2.2.2');
    t.is(first.status, second.status);
    t.is(second.headers.get('idempotent-replayed'), 'true', 'a forged address does not make a new scope');
    const rows = await app.ownerDb('idempotency_keys').where({ key }).select('scope');
    t.deepEqual(
      rows.map((r) => r.scope),
      [`ip:${PROXY_SAW}`],
    );
  } finally {
    await app.close();
  }
});

test('TRUST_PROXY=true still works, as one hop, with a deprecation warning', async (t) => {
  const { loadConfig } = await import('../../domain/shared/config.js');
  const config = loadConfig({ TRUST_PROXY: 'true' });
  t.is(config.trustedProxyHops, 1);
  t.deepEqual(config.warnings, ['TRUST_PROXY=true is deprecated: it means TRUSTED_PROXY_HOPS=1; set that instead']);
  t.is(loadConfig({ TRUST_PROXY: 'true', TRUSTED_PROXY_HOPS: '2' }).trustedProxyHops, 2);
  t.is(loadConfig({}).trustedProxyHops, 0);
  const err = t.throws(() => loadConfig({ TRUSTED_PROXY_HOPS: '-1' })) as Error & { problems: string[] };
  t.deepEqual(err.problems, ['TRUSTED_PROXY_HOPS: must be an integer from 0 to 10 (got "-1")']);
});
