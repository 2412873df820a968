import { X509Certificate } from 'node:crypto';
import test from 'ava';
import { buildTimeStampRequest, randomNonce } from '../../domain/anchoring/time-stamp-request.js';
import { parseTimeStampResponse } from '../../domain/anchoring/time-stamp-response.js';
import { verifyTimeStampToken } from '../../domain/anchoring/verify-time-stamp-token.js';
import { closedDay, fiscalBytes, getFiscal, runAnchorJobs } from '../helpers/fiscal-closings.js';
import { type LocalTsa, startLocalTsa, tsaAnswers, tsaAppEnv } from '../helpers/local-tsa.js';
import { nock } from '../helpers/net.js';
import { flipSignatureByte, opensslVerifyToken } from '../helpers/openssl-ts.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

/**
 * An authority whose keys are ECDSA P-256 (local-tsa.sh with TSA_KEY_ALG=ec), reached over HTTP
 * through nock: its tokens anchor closings and verify in process and with `openssl ts -verify`.
 */
const TSA = 'http://ec-tsa.example.test';
const clock = new TestClock('2026-07-01T10:00:00Z');
let app: TestApp;
let tsa: LocalTsa;
let otherTsa: LocalTsa;

test.before(async () => {
  [tsa, otherTsa] = await Promise.all([startLocalTsa('ec'), startLocalTsa('ec')]);
  app = await startTestApp({
    env: tsaAppEnv(TSA, tsa),
    override: withClock(clock),
  });
});
test.after.always(async () => {
  await app?.close();
  await tsa?.remove();
  await otherTsa?.remove();
  nock.cleanAll();
});

/** A token straight from a local TSA for a digest and a nonce. */
async function tokenFrom(authority: LocalTsa, digestHex: string, nonce: bigint): Promise<Buffer> {
  const response = parseTimeStampResponse(await authority.reply(buildTimeStampRequest(digestHex, nonce)));
  if (!response.token) throw new Error(`the local TSA refused: ${response.statusText.join(' ')}`);
  return response.token;
}

test.serial('an ECDSA P-256 authority anchors a closing; openssl and the in-process verifier accept it', async (t) => {
  const { tenant, closing } = await closedDay(app, clock, '2026-07-01');
  const key = tenant.keys.sk_test;
  const call = tsaAnswers(TSA, tsa);
  t.deepEqual(await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId), [{ status: 'anchored', verified: true }]);
  call.done();
  const anchor = (await getFiscal(app, key, 'anchors')).body.data[0];
  t.like(anchor, {
    status: 'anchored',
    verified: true,
    data_hash: closing.closing_hash,
    tsa_url: `${TSA}/tsr`,
    tsa_name: 'O=Local Test, CN=Local Test TSA',
    policy: '1.3.6.1.4.1.99999.1.1',
    attempts: 1,
    last_error: null,
  });
  // The signer (first in the chain) really holds a P-256 key.
  const signer = new X509Certificate(anchor.certificate_chain.split(/(?<=-----END CERTIFICATE-----\n)/)[0]);
  t.is(signer.publicKey.asymmetricKeyType, 'ec');
  t.is(signer.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');

  const token = await fiscalBytes(app, key, `anchors/${anchor.id}/token`);
  const caPem = (await fiscalBytes(app, key, `anchors/${anchor.id}/ca-certificate`)).toString('utf8');
  t.is(caPem.replace(/\s+/g, ''), tsa.caPem.replace(/\s+/g, ''), 'the CA served is the TSA’s root');
  const openssl = await opensslVerifyToken(token, closing.closing_hash, caPem);
  t.true(openssl.ok, openssl.output);
  t.like(verifyTimeStampToken(token, { digestHex: closing.closing_hash, trustedCaPems: [caPem] }), { valid: true });
  t.like((await getFiscal(app, key, 'integrity')).body, { valid: true, anchors_checked: 1 });
});

test.serial(
  'an ECDSA token with a flipped signature, for another hash or nonce, or mis-encoded fails, saying why',
  async (t) => {
    const digest = 'a1'.repeat(32);
    const nonce = randomNonce();
    const token = await tokenFrom(tsa, digest, nonce);
    const trusted = { trustedCaPems: [tsa.caPem] };
    t.like(verifyTimeStampToken(token, { digestHex: digest, nonce, ...trusted }), { valid: true });
    t.true((await opensslVerifyToken(token, digest, tsa.caPem)).ok);

    const flipped = flipSignatureByte(token);
    t.like(verifyTimeStampToken(flipped, { digestHex: digest, nonce, ...trusted }), {
      valid: false,
      reason: 'the signature over the signed attributes is not valid',
    });
    t.false((await opensslVerifyToken(flipped, digest, tsa.caPem)).ok);

    const otherDigest = 'b2'.repeat(32);
    t.like(verifyTimeStampToken(token, { digestHex: otherDigest, nonce, ...trusted }), {
      valid: false,
      reason: 'the message imprint is not the expected hash',
    });
    t.false((await opensslVerifyToken(token, otherDigest, tsa.caPem)).ok);

    t.like(verifyTimeStampToken(token, { digestHex: digest, nonce: nonce + 1n, ...trusted }), {
      valid: false,
      reason: 'the nonce is not the one of the request',
    });

    // The SignedData wrapper ([0] EXPLICIT, bytes 15-18: a0 82 hi lo) stating one byte less than it holds.
    t.deepEqual([...token.subarray(15, 17)], [0xa0, 0x82]);
    const misLength = Buffer.from(token);
    misLength.writeUInt16BE(misLength.readUInt16BE(17) - 1, 17);
    t.like(verifyTimeStampToken(misLength, { digestHex: digest, nonce, ...trusted }), {
      valid: false,
      reason: "not a time-stamp token: ContentInfo: an element's length does not match its contents (DER)",
    });
    t.false((await opensslVerifyToken(misLength, digest, tsa.caPem)).ok);
  },
);

test.serial('a token from another TSA does not verify against ours, in process or with openssl', async (t) => {
  const digest = 'c3'.repeat(32);
  const foreign = await tokenFrom(otherTsa, digest, randomNonce());
  t.like(verifyTimeStampToken(foreign, { digestHex: digest, trustedCaPems: [otherTsa.caPem] }), { valid: true });
  t.like(verifyTimeStampToken(foreign, { digestHex: digest, trustedCaPems: [tsa.caPem] }), {
    valid: false,
    reason: 'the signer certificate does not chain to a trusted CA',
  });
  t.false((await opensslVerifyToken(foreign, digest, tsa.caPem)).ok);

  // Answered through HTTP, the foreign token fails the anchor, kept as evidence, not retried.
  const { tenant } = await closedDay(app, clock, '2026-07-05');
  const call = tsaAnswers(TSA, otherTsa);
  t.deepEqual(await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId), [{ status: 'failed', verified: false }]);
  call.done();
  const anchor = (await getFiscal(app, tenant.keys.sk_test, 'anchors')).body.data[0];
  t.like(anchor, {
    status: 'failed',
    verified: false,
    attempts: 1,
    last_error: 'the token does not verify: the signer certificate does not chain to a trusted CA',
  });
  t.truthy(anchor.token, 'the token is kept as evidence');
});
