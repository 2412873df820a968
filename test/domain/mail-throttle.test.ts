import test from 'ava';
import { claimMailSlot } from '../../domain/users/mail-throttle.js';
import { seedUser } from '../helpers/identities.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
test.before(async () => {
  env = await createTestDeps();
});
test.after.always(() => env?.close());

test('one mail a minute: a burst across a clock minute is one claim, the next comes 60 s after it', async (t) => {
  const user = await seedUser(env.ownerDb);
  const who = { tenantId: user.tenantId, userId: user.userId };
  const claim = (iso: string) => claimMailSlot(env.ownerDb, who, 'reset_mail_queued_at', 60, new Date(iso));
  t.true(await claim('2026-11-26T12:00:59.900Z'));
  t.false(await claim('2026-11-26T12:01:00.100Z'), 'a new clock minute is not a new slot');
  t.false(await claim('2026-11-26T12:01:59.800Z'));
  t.true(await claim('2026-11-26T12:01:59.900Z'), '60 s after the last claim');
  // Each kind of mail has its own slot.
  t.true(await claimMailSlot(env.ownerDb, who, 'verification_mail_queued_at', 60, new Date('2026-11-26T12:02:00Z')));
});

test('concurrent claims: exactly one wins', async (t) => {
  const user = await seedUser(env.ownerDb);
  const who = { tenantId: user.tenantId, userId: user.userId };
  const now = new Date();
  const results = await Promise.all(
    Array.from({ length: 10 }, () =>
      env.ownerDb.transaction((tx) => claimMailSlot(tx, who, 'reset_mail_queued_at', 60, now)),
    ),
  );
  t.is(results.filter(Boolean).length, 1);
});
