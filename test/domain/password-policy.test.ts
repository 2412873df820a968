import test from 'ava';
import { signToken, verifyToken } from '../../domain/auth/signed-token.js';
import { passwordProblems } from '../../domain/users/password-policy.js';
import { normalizePhone } from '../../domain/users/phone.js';

test('password policy: length, two classes, five different characters, not the e-mail', (t) => {
  const email = 'jane.doe@example.com';
  t.deepEqual(passwordProblems('correct horse battery staple', email), []);
  t.deepEqual(passwordProblems('Tr0ub4dor&3x', email), []);
  t.deepEqual(passwordProblems('ÉlanVital99', email), [], 'letters beyond ASCII count');
  t.deepEqual(passwordProblems('Abc123', email), ['must be at least 10 characters']);
  t.deepEqual(passwordProblems('0123456789', email), [
    'must mix at least two of: lowercase letters, uppercase letters, digits, other characters',
  ]);
  t.deepEqual(passwordProblems('abababababab12', email), ['must use at least 5 different characters']);
  t.deepEqual(passwordProblems('Jane.Doe@Example.com', email), ['must not contain your e-mail address']);
  t.deepEqual(passwordProblems('my jane.doe 2026', email), ['must not contain your e-mail address']);
});

test('phone: E.164 after dropping separators; 00 becomes +; national and short numbers are refused', (t) => {
  t.is(normalizePhone('+33 6 12 34 56 78'), '+33612345678');
  t.is(normalizePhone('+1 (415) 555-0132'), '+14155550132');
  t.is(normalizePhone('0033.6.12.34.56.78'), '+33612345678');
  for (const bad of ['0612345678', '+0612345678', '+3361', `+${'1'.repeat(16)}`, '+33 6 12 AB 56 78', '']) {
    t.is(normalizePhone(bad), null, bad);
  }
});

test('signed tokens: purpose-bound, expiring, tamper-evident', (t) => {
  const key = Buffer.alloc(32, 9);
  const now = new Date('2026-11-22T10:00:00Z');
  const token = signToken({ key, purpose: 'a', now }, { email: 'x@example.com' }, 60);
  t.like(verifyToken({ key, purpose: 'a', now }, token), { email: 'x@example.com' });
  t.is(verifyToken({ key, purpose: 'b', now }, token), null, 'another purpose');
  t.is(verifyToken({ key: Buffer.alloc(32, 8), purpose: 'a', now }, token), null, 'another key');
  t.is(verifyToken({ key, purpose: 'a', now: new Date(now.getTime() + 60_000) }, token), null, 'expired');
  const [body, mac] = token.split('.');
  const forged = `${Buffer.from(JSON.stringify({ email: 'y@example.com', exp: 9e9 })).toString('base64url')}.${mac}`;
  t.is(verifyToken({ key, purpose: 'a', now }, forged), null, 'altered claims');
  for (const junk of [`${body}`, `${body}.${mac}.x`, '', 'a.b', undefined]) {
    t.is(verifyToken({ key, purpose: 'a', now }, junk), null, String(junk));
  }
  t.throws(() => signToken({ key: null, purpose: 'a', now }, {}, 60), { message: /APP_KEY/ });
});
