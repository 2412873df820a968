import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import test from 'ava';
import { signToken, verifyToken } from '../../domain/auth/signed-token.js';
import { subkey } from '../../domain/shared/app-subkeys.js';
import { isLegacySeal, open, seal } from '../../domain/shared/secret-box.js';

const APP_KEY = randomBytes(32);

/** What `seal` wrote before the key was derived: `v1:` + base64(nonce|tag|data), AES-256-GCM under APP_KEY itself. */
function legacySeal(key: Buffer, plaintext: string, context: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([nonce, cipher.getAuthTag(), data]).toString('base64')}`;
}

test('new values are sealed under the derived key (v2:); values sealed before (v1:) still open', (t) => {
  const sealed = seal(APP_KEY, 'whsec_secret', 'endpoint-1');
  t.regex(sealed, /^v2:/);
  t.false(isLegacySeal(sealed));
  t.is(open(APP_KEY, sealed, 'endpoint-1'), 'whsec_secret');

  const old = legacySeal(APP_KEY, 'whsec_old', 'endpoint-2');
  t.true(isLegacySeal(old));
  t.is(open(APP_KEY, old, 'endpoint-2'), 'whsec_old');
  t.throws(() => open(APP_KEY, old, 'endpoint-3'), undefined, 'the context still binds an old value');
  // a v2 value relabelled v1 (or the reverse) does not open: each version has its own key
  t.throws(() => open(APP_KEY, `v1:${sealed.slice(3)}`, 'endpoint-1'));
  t.throws(() => open(APP_KEY, `v2:${old.slice(3)}`, 'endpoint-2'));
});

test('a sealed value with a truncated tag is refused, in either format', (t) => {
  for (const sealed of [seal(APP_KEY, 'x', 'c'), legacySeal(APP_KEY, 'x', 'c')]) {
    const raw = Buffer.from(sealed.slice(3), 'base64');
    // nonce and only 4 bytes of tag: GCM would accept a 4-byte tag without authTagLength
    for (const length of [12 + 4, 12 + 8, 12 + 15]) {
      const truncated = `${sealed.slice(0, 3)}${raw.subarray(0, length).toString('base64')}`;
      t.throws(() => open(APP_KEY, truncated, 'c'), { message: /too short|tag/i }, `length ${length}`);
    }
  }
});

test('one APP_KEY, separate keys: sealing, each signed-token purpose, never the raw key', (t) => {
  const sealing = subkey(APP_KEY, 'secret-box');
  const links = subkey(APP_KEY, 'signed-token:invoice-file');
  const state = subkey(APP_KEY, 'signed-token:google-oauth-state');
  t.is(sealing.length, 32);
  t.is(new Set([APP_KEY, sealing, links, state].map((k) => k.toString('hex'))).size, 4);
  t.is(subkey(APP_KEY, 'secret-box'), sealing, 'derived once per key and purpose');

  const now = new Date();
  const token = signToken({ key: APP_KEY, purpose: 'invoice-file', now }, { invoice_id: 'i' }, 60);
  t.truthy(verifyToken({ key: APP_KEY, purpose: 'invoice-file', now }, token));
  t.is(verifyToken({ key: APP_KEY, purpose: 'credit-note-file', now }, token), null);
  // a MAC made with the raw APP_KEY (the old scheme) is not accepted
  const [body] = token.split('.');
  const raw = createHmac('sha256', APP_KEY).update(`invoice-file.${body}`, 'utf8').digest('base64url');
  t.is(verifyToken({ key: APP_KEY, purpose: 'invoice-file', now }, `${body}.${raw}`), null);
});
