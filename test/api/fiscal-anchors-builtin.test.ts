import test from 'ava';
import type { Knex } from 'knex';
import { verifyTimeStampToken } from '../../domain/anchoring/verify-time-stamp-token.js';
import { inTenantContext } from '../../domain/shared/tenant-context.js';
import { expectRefusal } from '../helpers/assertions.js';
import { closedDay, getFiscal, runAnchorJobs } from '../helpers/fiscal-closings.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { flipSignatureByte, opensslTokenText, opensslVerifyToken } from '../helpers/openssl-ts.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

const clock = new TestClock('2026-05-04T10:00:00Z');
let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' }, override: withClock(clock) });
});
test.after.always(() => app?.close());

const closedDayAt = (day: string) => closedDay(app, clock, day, 3_600_000);

const fetchFiscal = (key: string, path: string) =>
  app.request(`/api/v1/tenant/fiscal/${path}`, { headers: { 'X-Tenant-Key': key } });

const download = async (key: string, path: string) => {
  const res = await app.request(`/api/v1/tenant/fiscal/${path}`, { headers: { 'X-Tenant-Key': key } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

test.serial(
  'the built-in authority anchors a closing; openssl verifies the token with the CA the API serves',
  async (t) => {
    const { tenant, closing } = await closedDayAt('2026-05-04');
    const key = tenant.keys.sk_test;
    t.like(closing.anchor, { status: 'pending', verified: false });
    t.like((await getFiscal(app, key, 'anchors')).body.data[0], { status: 'pending', token: null, attempts: 0 });

    clock.set('2026-05-05T01:00:10Z');
    t.deepEqual(await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId), [{ status: 'anchored', verified: true }]);
    const anchors = await getFiscal(app, key, 'anchors');
    t.like(anchors.body, { success: true, meta: { total: 1, per_page: 20 } });
    const anchor = anchors.body.data[0];
    t.like(anchor, {
      type: 'closing',
      entity_id: closing.id,
      data_hash: closing.closing_hash,
      status: 'anchored',
      verified: true,
      tsa_url: null,
      tsa_name: 'O=Local Test, CN=Built-in TSA - not a qualified authority',
      anchored_at: '2026-05-05T01:00:10.000Z',
      attempts: 1,
      last_error: null,
      environment: 'sandbox',
    });
    t.regex(anchor.anchor_reference, /^0x[0-9A-F]+$/);
    t.regex(anchor.certificate_chain, /^-----BEGIN CERTIFICATE-----/);
    t.like((await getFiscal(app, key, 'closings')).body.data[0].anchor, {
      id: anchor.id,
      status: 'anchored',
      verified: true,
    });

    const token = await download(key, `anchors/${anchor.id}/token`);
    t.is(token.res.status, 200);
    t.is(token.res.headers.get('content-type'), 'application/octet-stream');
    t.regex(token.res.headers.get('content-disposition') ?? '', /attachment; filename="anchor-.+\.tst"/);
    t.deepEqual(token.bytes, Buffer.from(anchor.token, 'base64'));
    const ca = await download(key, `anchors/${anchor.id}/ca-certificate`);
    t.is(ca.res.status, 200);
    t.regex(ca.res.headers.get('content-type') ?? '', /^application\/x-pem-file/);
    const caPem = ca.bytes.toString('utf8');
    t.regex(caPem, /^-----BEGIN CERTIFICATE-----\n/);

    const verified = await opensslVerifyToken(token.bytes, closing.closing_hash, caPem);
    t.true(verified.ok, verified.output);
    const text = await opensslTokenText(token.bytes);
    t.regex(text, /TSA: DirName:\/O=Local Test\/CN=Built-in TSA - not a qualified authority/);
    t.true(text.includes(`Policy OID: 1.3.6.1.4.1.99999.2.1`));

    // openssl and the in-process verifier agree, on the good token and on two bad ones.
    const inProcess = (bytes: Buffer, digest: string) =>
      verifyTimeStampToken(bytes, { digestHex: digest, trustedCaPems: [caPem] });
    t.true(inProcess(token.bytes, closing.closing_hash).valid);
    const wrongDigest = closing.closing_hash.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
    t.false((await opensslVerifyToken(token.bytes, wrongDigest, caPem)).ok);
    t.like(inProcess(token.bytes, wrongDigest), {
      valid: false,
      reason: 'the message imprint is not the expected hash',
    });
    const flipped = flipSignatureByte(token.bytes);
    t.false((await opensslVerifyToken(flipped, closing.closing_hash, caPem)).ok);
    t.like(inProcess(flipped, closing.closing_hash), {
      valid: false,
      reason: 'the signature over the signed attributes is not valid',
    });

    t.deepEqual(await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId), [{ skipped: true, status: 'anchored' }]);
    t.like((await getFiscal(app, key, 'integrity')).body, { valid: true, closings_checked: 1, anchors_checked: 1 });
  },
);

test.serial('token and CA downloads: 409 while pending, 404 for another tenant or an unknown id', async (t) => {
  const { tenant, closing } = await closedDayAt('2026-05-10');
  const key = tenant.keys.sk_test;
  const anchor = (await getFiscal(app, key, `anchors?entity_id=${closing.id}`)).body.data[0];
  await expectRefusal(t, await fetchFiscal(key, `anchors/${anchor.id}/token`), 409, 'INVALID_STATE');
  await expectRefusal(t, await fetchFiscal(key, `anchors/${anchor.id}/ca-certificate`), 409, 'INVALID_STATE');
  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  await expectRefusal(t, await fetchFiscal(other.keys.sk_test, `anchors/${anchor.id}/token`), 404, 'NOT_FOUND');
  await expectRefusal(t, await fetchFiscal(tenant.keys.sk_live, `anchors/${anchor.id}/token`), 404, 'NOT_FOUND');
  await expectRefusal(t, await fetchFiscal(key, 'anchors/not-a-uuid/token'), 404, 'NOT_FOUND');
  t.is((await getFiscal(app, other.keys.sk_test, 'anchors')).body.meta.total, 0);
  t.is((await getFiscal(app, key, 'anchors?status=anchored')).body.meta.total, 0);
  t.is((await getFiscal(app, key, 'anchors?status=pending')).body.meta.total, 1);
});

test.serial('an anchor is completed once, pending to anchored; nothing else changes it', async (t) => {
  const { tenant, closing } = await closedDayAt('2026-05-20');
  const asApp = <T>(run: (tx: Knex.Transaction) => Promise<T>) =>
    inTenantContext(app.deps.db, { tenantId: tenant.tenantId, environment: 'sandbox', kind: 'tenant' }, run);
  const pending = (await app.ownerDb('fiscal_anchors').where({ entity_id: closing.id }).first()).id;
  await t.throwsAsync(
    asApp((tx) =>
      tx('fiscal_anchors')
        .where({ id: pending })
        .update({ data_hash: 'f'.repeat(64) }),
    ),
    { message: /append-only/ },
  );
  await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId);
  const anchored = await app.ownerDb('fiscal_anchors').where({ id: pending }).first();
  t.is(anchored.status, 'anchored');
  for (const change of [
    { status: 'pending' },
    { status: 'failed', failure_reason: 'x', verified: false },
    { tsa_name: 'x' },
  ]) {
    await t.throwsAsync(
      asApp((tx) => tx('fiscal_anchors').where({ id: pending }).update(change)),
      {
        message: /append-only: only a pending anchor is completed, once/,
      },
    );
  }
  // the application role has no DELETE privilege at all; the owner meets the triggers
  await t.throwsAsync(
    asApp((tx) => tx('fiscal_anchors').where({ id: pending }).del()),
    { message: /permission denied for table fiscal_anchors/ },
  );
  await t.throwsAsync(
    asApp((tx) => tx('fiscal_anchor_attempts').where({ anchor_id: pending }).del()),
    { message: /permission denied for table fiscal_anchor_attempts/ },
  );
  await t.throwsAsync(app.ownerDb('fiscal_anchors').where({ id: pending }).del(), { message: /append-only/ });
  await t.throwsAsync(app.ownerDb('fiscal_anchor_attempts').where({ anchor_id: pending }).del(), {
    message: /append-only/,
  });
  await t.throwsAsync(app.ownerDb.raw('truncate fiscal_anchors, fiscal_anchor_attempts'), { message: /append-only/ });
  t.deepEqual(await app.ownerDb('fiscal_anchors').where({ id: pending }).first(), anchored);

  const authorities = await app.ownerDb('time_stamp_authorities');
  t.is(authorities.length, 1, 'the built-in authority was made once');
  t.regex(authorities[0].tsa_private_key, /^v2:/, 'its keys are sealed under the key derived from APP_KEY');
  t.false(authorities[0].tsa_private_key.includes('PRIVATE KEY'));
  t.false(authorities[0].ca_private_key.includes('PRIVATE KEY'));
});
