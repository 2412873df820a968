import test from 'ava';
import '../helpers/net.js';

test('tests cannot reach the network beyond loopback', async (t) => {
  const err = await t.throwsAsync(fetch('https://api.example.com/anything'));
  t.regex(String(err?.cause ?? err?.message), /Disallowed net connect/);
});
