import test from 'ava';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { ProviderAccountRef } from '../../domain/transmission/einvoicing-provider.js';
import { connectProvider } from '../../domain/transmission/operations/connect-provider.js';
import { SuperPdpTokens } from '../../domain/transmission/superpdp-tokens.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { nock } from '../helpers/net.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

const BASE = 'https://api.superpdp.test';
let t0: TestDeps;
test.before(async () => {
  t0 = await createTestDeps({ env: { SUPERPDP_BASE_URL: BASE } });
});
test.after.always(() => t0?.close());
test.afterEach.always(() => nock.cleanAll());

const tokensOf = () =>
  new SuperPdpTokens({
    baseUrl: BASE,
    timeoutMs: 2000,
    appKey: t0.deps.config.appKey!,
    db: t0.deps.db,
    clock: t0.deps.clock,
  });

test.serial(
  'five workers needing a new token at once: one refresh, the rotated token stored once, never reused',
  async (t) => {
    const tenant = await seedPlatformTenant(t0.ownerDb);
    const c = await execute(
      connectProvider,
      { tenant_id: tenant.tenantId, client_id: 'cid', client_secret: 'cs' },
      systemCaller(),
      t0.deps,
    );
    const account: ProviderAccountRef = { id: c.id, tenantId: tenant.tenantId, environment: 'production' };
    nock(BASE)
      .post('/oauth2/token', (b) => b.grant_type === 'client_credentials')
      .reply(200, { access_token: 'at_1', expires_in: 1800, refresh_token: 'rt_1' });
    t.is(await tokensOf().accessToken(account), 'at_1');

    // The provider refused at_1 (401) in five workers at once: each asks for a renewal.
    const refresh = nock(BASE)
      .post('/oauth2/token', (b) => b.grant_type === 'refresh_token' && b.refresh_token === 'rt_1')
      .delay(200)
      .reply(200, { access_token: 'at_2', expires_in: 1800, refresh_token: 'rt_2' });
    const tokens = await Promise.all(Array.from({ length: 5 }, () => tokensOf().accessToken(account, 'at_1')));
    t.deepEqual(tokens, Array(5).fill('at_2'));
    refresh.done();
    const row = await t0.ownerDb('provider_connections').where({ id: c.id }).first();
    t.is(row.token_version, 2);

    // The next renewal spends rt_2, the rotated token; rt_1 is never sent again.
    const next = nock(BASE)
      .post('/oauth2/token', (b) => b.grant_type === 'refresh_token' && b.refresh_token === 'rt_2')
      .reply(200, { access_token: 'at_3', expires_in: 1800, refresh_token: 'rt_3' });
    t.is(await tokensOf().accessToken(account, 'at_2'), 'at_3');
    next.done();
  },
);
