import test from 'ava';
import { findApiKey } from '../../domain/auth/credential-lookups.js';
import { hashApiKey, keyPrefix } from '../../domain/tenants/api-key.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
test.before(async () => {
  env = await createTestDeps();
});
test.after.always(() => env?.close());

const lookup = (key: string) => findApiKey(env.deps.db, keyPrefix(key), hashApiKey(key));

test('concurrent lookups of several keys share statements and each gets its own key', async (t) => {
  const a = await seedPlatformTenant(env.ownerDb);
  const b = await seedPlatformTenant(env.ownerDb);
  const keys = [
    a.keys.sk_test,
    a.keys.sk_live,
    b.keys.sk_test,
    b.keys.pk_live,
    'sk_test_UNKNOWNUNKNOWNUNKNOWNUNKNOWN12',
  ];
  const presented = Array.from({ length: 60 }, (_, i) => keys[i % keys.length]);
  const rows = await Promise.all(presented.map(lookup));
  const expected = await env
    .ownerDb('api_keys')
    .whereIn('key_hash', keys.map(hashApiKey))
    .select('id', 'key_hash', 'tenant_id');
  const idOf = new Map(expected.map((row) => [row.key_hash.trim(), row]));
  for (const [i, key] of presented.entries()) {
    const want = idOf.get(hashApiKey(key));
    if (!want) t.is(rows[i], undefined, 'an unknown key finds nothing');
    else t.like(rows[i], { id: want.id, tenant_id: want.tenant_id }, key.slice(0, 8));
  }
});

test('a key revoked before the request is seen revoked, even while other lookups are in flight', async (t) => {
  const tenant = await seedPlatformTenant(env.ownerDb);
  const key = tenant.keys.sk_test;
  const inFlight = Array.from({ length: 20 }, () => lookup(key));
  await env.ownerDb('api_keys').where('key_hash', hashApiKey(key)).update({ status: 'revoked' });
  const after = await lookup(key);
  t.is(after?.status, 'revoked');
  await Promise.all(inFlight);
});
