import test from 'ava';
import { buildTimeStampRequest, randomNonce } from '../../domain/anchoring/time-stamp-request.js';
import { verifyTimeStampToken } from '../../domain/anchoring/verify-time-stamp-token.js';
import { isAppError } from '../../domain/shared/app-error.js';
import { closedDay, fiscalBytes, getFiscal, runAnchorJobs } from '../helpers/fiscal-closings.js';
import { type LocalTsa, tsaAnswers as localTsaAnswers, startLocalTsa, tsaAppEnv } from '../helpers/local-tsa.js';
import { nock } from '../helpers/net.js';
import { flipSignatureByte, opensslVerifyToken } from '../helpers/openssl-ts.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

/**
 * The HTTP TSA client against the local test TSA (../shared/tsa/local-tsa.sh, openssl ts): nock
 * takes the request the client sends, the script answers it, nock returns the script's bytes.
 */
const TSA = 'http://tsa.example.test';
const clock = new TestClock('2026-06-01T10:00:00Z');
let app: TestApp;
let tsa: LocalTsa;
let tsaCa: string;

test.before(async () => {
  tsa = await startLocalTsa();
  tsaCa = tsa.caPem;
  app = await startTestApp({
    env: tsaAppEnv(TSA, tsa),
    override: withClock(clock),
  });
});
test.after.always(async () => {
  await app?.close();
  await tsa?.remove();
  nock.cleanAll();
});

/** One TSA call answered by local-tsa.sh; `rewrite` may swap the request first (to forge a wrong answer). */
const tsaAnswers = (rewrite?: (request: Buffer) => Buffer) => localTsaAnswers(TSA, tsa, rewrite);

test.serial('a TSA that is down leaves the anchor pending; a later run anchors it through HTTP', async (t) => {
  const { tenant, closing } = await closedDay(app, clock, '2026-06-01');
  const key = tenant.keys.sk_test;
  t.is(closing.anchor.status, 'pending', 'the closing did not wait for the TSA');

  const down = nock(TSA)
    .post('/tsr')
    .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  const [first] = await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId);
  t.true(isAppError(first) && first.code === 'PROVIDER_UNAVAILABLE' && first.extra.retryable === true, String(first));
  down.done();
  t.like((await getFiscal(app, key, 'anchors')).body.data[0], { status: 'pending', attempts: 1, verified: false });
  t.regex((await getFiscal(app, key, 'anchors')).body.data[0].last_error, /network error/);

  const unavailable = nock(TSA).post('/tsr').reply(503, 'busy');
  const [second] = await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId);
  t.true(isAppError(second) && second.extra.retryable === true);
  unavailable.done();
  t.like((await getFiscal(app, key, 'anchors')).body.data[0], { status: 'pending', attempts: 2 });
  t.regex((await getFiscal(app, key, 'anchors')).body.data[0].last_error, /HTTP 503/);

  const wrongType = nock(TSA).post('/tsr').reply(200, '<html>login</html>', { 'Content-Type': 'text/html' });
  const [third] = await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId);
  t.true(isAppError(third) && third.extra.retryable === true);
  wrongType.done();

  clock.set('2026-06-02T03:00:00Z');
  const up = tsaAnswers();
  t.deepEqual(await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId), [{ status: 'anchored', verified: true }]);
  up.done();
  const anchor = (await getFiscal(app, key, 'anchors')).body.data[0];
  t.like(anchor, {
    status: 'anchored',
    verified: true,
    data_hash: closing.closing_hash,
    tsa_url: `${TSA}/tsr`,
    tsa_name: 'O=Local Test, CN=Local Test TSA',
    policy: '1.3.6.1.4.1.99999.1.1',
    attempts: 4,
    last_error: null,
  });
  const token = await fiscalBytes(app, key, `anchors/${anchor.id}/token`);
  const caPem = (await fiscalBytes(app, key, `anchors/${anchor.id}/ca-certificate`)).toString('utf8');
  t.is(caPem.replace(/\s+/g, ''), tsaCa.replace(/\s+/g, ''), 'the CA served is the TSA’s root');
  const verified = await opensslVerifyToken(token, closing.closing_hash, caPem);
  t.true(verified.ok, verified.output);

  // The in-process verifier and openssl agree on openssl's own tokens too.
  const wrongDigest = 'ab'.repeat(32);
  t.false((await opensslVerifyToken(token, wrongDigest, caPem)).ok);
  t.false(verifyTimeStampToken(token, { digestHex: wrongDigest, trustedCaPems: [caPem] }).valid);
  const flipped = flipSignatureByte(token);
  t.false((await opensslVerifyToken(flipped, closing.closing_hash, caPem)).ok);
  t.like(verifyTimeStampToken(flipped, { digestHex: closing.closing_hash, trustedCaPems: [caPem] }), {
    valid: false,
    reason: 'the signature over the signed attributes is not valid',
  });
  const foreignCa = await opensslVerifyToken(token, closing.closing_hash, await builtinCaPem());
  t.false(foreignCa.ok);
  t.false(
    verifyTimeStampToken(token, { digestHex: closing.closing_hash, trustedCaPems: [await builtinCaPem()] }).valid,
  );
  t.like((await getFiscal(app, key, 'integrity')).body, { valid: true, anchors_checked: 1 });
});

/** Another CA than the TSA's: a freshly made test authority's. */
async function builtinCaPem(): Promise<string> {
  const other = await startLocalTsa();
  await other.remove();
  return other.caPem;
}

test.serial(
  'a token for another hash fails the anchor, and a refusal too: kept as evidence, not retried',
  async (t) => {
    const { tenant } = await closedDay(app, clock, '2026-06-10');
    const key = tenant.keys.sk_test;
    // A TSA answering another request: its token time-stamps another hash (and another nonce).
    const forged = tsaAnswers(() => buildTimeStampRequest('cd'.repeat(32), randomNonce()));
    const [outcome] = await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId);
    forged.done();
    t.deepEqual(outcome, { status: 'failed', verified: false });
    const anchor = (await getFiscal(app, key, 'anchors')).body.data[0];
    t.like(anchor, { status: 'failed', verified: false, attempts: 1 });
    t.regex(anchor.last_error, /does not verify/);
    t.truthy(anchor.token, 'the token is kept as evidence');

    const other = await closedDay(app, clock, '2026-06-11');
    const refused = tsaAnswers(() => Buffer.from('not a request'));
    t.deepEqual(await runAnchorJobs(app.ownerDb, app.deps, other.tenant.tenantId), [
      { status: 'failed', verified: false },
    ]);
    refused.done();
    const rejected = (await getFiscal(app, other.tenant.keys.sk_test, 'anchors')).body.data[0];
    t.like(rejected, { status: 'failed', token: null });
    t.regex(rejected.last_error, /the TSA refused \(status 2\)/);
  },
);
