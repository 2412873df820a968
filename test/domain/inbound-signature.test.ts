import { createHmac } from 'node:crypto';
import test from 'ava';
import { verifyInboundSignature } from '../../domain/webhooks/inbound-signature.js';

const SECRET = 'provider-shared-secret';
// Bytes a JSON round trip would change: spacing, key order, an escaped character.
const RAW = Buffer.from('{ "event_id":"evt_1",  "type":"invoice.received", "name":"Caf\\u00e9" }\n');
const NOW = new Date('2026-11-22T10:00:00Z');
const T = Math.floor(NOW.getTime() / 1000);
const hmac = (message: Buffer | string, secret = SECRET) => createHmac('sha256', secret).update(message).digest('hex');
const verify = (header: string | undefined, body = RAW, secret = SECRET, now = NOW) =>
  verifyInboundSignature(body, header, secret, now);

test('the three header forms are accepted when they sign the raw bytes', (t) => {
  t.deepEqual(verify(`sha256=${hmac(RAW)}`), { valid: true });
  t.deepEqual(verify(hmac(RAW)), { valid: true }, 'bare hex');
  t.deepEqual(verify(hmac(RAW).toUpperCase()), { valid: true }, 'hex case does not matter');
  t.deepEqual(verify(`t=${T},v1=${hmac(Buffer.concat([Buffer.from(`${T}.`), RAW]))}`), { valid: true });
  t.deepEqual(
    verify(`t=${T},v1=${'0'.repeat(64)},v1=${hmac(Buffer.concat([Buffer.from(`${T}.`), RAW]))}`),
    { valid: true },
    'any of several v1 signatures (secret rotation)',
  );
});

test('a changed body, a wrong secret, a re-serialized body or a missing header is refused', (t) => {
  const reserialized = Buffer.from(JSON.stringify(JSON.parse(RAW.toString())));
  t.false(verify(`sha256=${hmac(RAW)}`, reserialized).valid, 'the signature covers the bytes, not the JSON value');
  t.false(verify(`sha256=${hmac(RAW)}`, Buffer.from(RAW.toString().replace('evt_1', 'evt_2'))).valid);
  t.false(verify(`sha256=${hmac(RAW, 'another-secret')}`).valid);
  t.false(verify(hmac(RAW), RAW, '').valid, 'no secret configured: nothing verifies');
  t.deepEqual(verify(undefined), { valid: false, reason: 'no signature header' });
  t.deepEqual(verify('sha256=abc'), { valid: false, reason: 'unrecognised signature format' });
  t.deepEqual(verify(`t=${T}`), { valid: false, reason: 'malformed t=,v1= header' });
});

test('t=,v1= needs a timestamp within 300 s either way of now', (t) => {
  const signed = (ts: number) => `t=${ts},v1=${hmac(Buffer.concat([Buffer.from(`${ts}.`), RAW]))}`;
  t.true(verify(signed(T - 300)).valid);
  t.true(verify(signed(T + 300)).valid);
  t.deepEqual(verify(signed(T - 301)), { valid: false, reason: 'timestamp outside the 300 s window' });
  t.deepEqual(verify(signed(T + 301)), { valid: false, reason: 'timestamp outside the 300 s window' });
  // The timestamp is signed: moving it breaks the signature.
  const header = signed(T - 1000).replace(`t=${T - 1000}`, `t=${T}`);
  t.deepEqual(verify(header), { valid: false, reason: 'signature does not match' });
});
