import test from 'ava';
import { randomAlphanumeric } from '../../domain/shared/random.js';
import { environmentOfKey, generateApiKey, hashApiKey, KEY_FORMAT } from '../../domain/tenants/api-key.js';
import { isValidSiret } from '../../domain/tenants/siret.js';

test('SIRET: 14 digits and Luhn, with La Poste digit-sum exception', (t) => {
  t.true(isValidSiret('73282932000074'));
  t.false(isValidSiret('73282932000075'), 'Luhn fails');
  t.false(isValidSiret('7328293200007'), 'too short');
  t.false(isValidSiret('7328293200007a'), 'not digits');
  t.true(isValidSiret('35600000049837'), 'La Poste establishment: not Luhn, digit sum 45');
  t.true(isValidSiret('35600000000048'), 'La Poste head office: Luhn-valid');
  t.false(isValidSiret('35600000000049'), 'La Poste, neither rule');
  t.false(isValidSiret('12300000000047'), 'the digit-sum rule is for La Poste only');
});

test('generated keys match the specified formats and are looked up by prefix and SHA-256', (t) => {
  const live = generateApiKey('secret', 'production');
  t.regex(live.key, KEY_FORMAT.secret);
  t.true(live.key.startsWith('sk_live_'));
  t.is(live.hash, hashApiKey(live.key));
  t.regex(live.hash, /^[0-9a-f]{64}$/);
  t.is(live.prefix, live.key.slice(0, 12));
  t.is(live.lastFour, live.key.slice(-4));
  const pub = generateApiKey('publishable', 'sandbox');
  t.regex(pub.key, /^pk_test_[a-zA-Z0-9]{32}$/);
  t.is(environmentOfKey(live.key), 'production');
  t.is(environmentOfKey(pub.key), 'sandbox');
});

test('random keys use the whole alphabet, without repeats across many draws', (t) => {
  const seen = new Set<string>();
  const chars = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const value = randomAlphanumeric(32);
    t.regex(value, /^[A-Za-z0-9]{32}$/);
    seen.add(value);
    for (const c of value) chars.add(c);
  }
  t.is(seen.size, 2000);
  t.is(chars.size, 62);
});
