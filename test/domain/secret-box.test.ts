import { randomBytes } from 'node:crypto';
import test from 'ava';
import { open, seal } from '../../domain/shared/secret-box.js';

test('a sealed value opens with its key and context only, and never repeats', (t) => {
  const key = randomBytes(32);
  const a = seal(key, 'sk_live_secret', 'row-1');
  t.not(a, seal(key, 'sk_live_secret', 'row-1'), 'a fresh nonce each time');
  t.false(a.includes('sk_live_secret'));
  t.is(open(key, a, 'row-1'), 'sk_live_secret');
  t.throws(() => open(key, a, 'row-2'));
  t.throws(() => open(randomBytes(32), a, 'row-1'));
  const tampered = `${a.slice(0, 3)}${Buffer.from(Buffer.from(a.slice(3), 'base64').map((b, i) => (i === 30 ? b ^ 1 : b))).toString('base64')}`;
  t.throws(() => open(key, tampered, 'row-1'));
});
