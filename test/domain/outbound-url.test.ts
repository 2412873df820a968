import test from 'ava';
import {
  checkOutboundUrl,
  isPublicAddress,
  outboundUrlProblem,
  type Resolver,
} from '../../domain/shared/outbound-url.js';
import { httpWebhookSender } from '../../domain/webhooks/http-webhook-sender.js';
import type { WebhookRequest } from '../../domain/webhooks/webhook-sender.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

// No nock here: these tests make real connections to receivers on 127.0.0.1, through host names
// that only the tests' resolvers know.

/** Every private, loopback, link-local and metadata form the guard must refuse in production. */
const REFUSED = [
  'https://127.0.0.1/hook',
  'https://127.255.255.254/hook',
  'https://10.0.0.1/hook',
  'https://172.16.0.1/hook',
  'https://172.31.255.255/hook',
  'https://192.168.1.20/hook',
  'https://169.254.169.254/latest/meta-data/', // cloud metadata
  'https://169.254.0.1/hook',
  'https://100.64.0.1/hook',
  'https://0.0.0.0/hook',
  'https://0.1.2.3/hook',
  'https://224.0.0.1/hook',
  'https://239.255.255.250/hook',
  'https://240.0.0.1/hook',
  'https://255.255.255.255/hook',
  'https://2130706433/hook', // decimal 127.0.0.1
  'https://017700000001/hook', // octal, one number
  'https://0177.0.0.1/hook', // octal dotted
  'https://0x7f000001/hook', // hexadecimal
  'https://0x7f.0.0.1/hook',
  'https://127.1/hook', // short form
  'https://10.1/hook',
  'https://3232235777/hook', // decimal 192.168.1.1
  'https://[::1]/hook',
  'https://[::]/hook',
  'https://[0:0:0:0:0:0:0:1]/hook',
  'https://[fc00::1]/hook',
  'https://[fd12:3456:789a::1]/hook',
  'https://[fe80::1]/hook',
  'https://[::ffff:127.0.0.1]/hook', // IPv4-mapped IPv6
  'https://[::ffff:7f00:1]/hook',
  'https://[::ffff:169.254.169.254]/hook',
  'https://[::ffff:10.0.0.1]/hook',
  'https://[64:ff9b::7f00:1]/hook', // NAT64 of 127.0.0.1
  'https://[2002:7f00:1::]/hook', // 6to4 of 127.0.0.1
  'https://[ff02::1]/hook',
  'https://localhost/hook',
  'https://LOCALHOST./hook',
  'https://api.localhost/hook',
  'https://printer.local/hook',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://metadata/hook', // single label: resolved through search domains
];

test('production mode refuses every private, loopback, link-local and metadata address form', (t) => {
  for (const url of REFUSED) t.is(outboundUrlProblem(url, false), 'must point to a public address', url);
});

test('production mode wants https without credentials; public addresses and names pass', (t) => {
  t.is(outboundUrlProblem('http://hooks.example.com/x', false), 'must be an https URL');
  t.is(outboundUrlProblem('ftp://hooks.example.com/x', false), 'must be an https URL');
  t.is(outboundUrlProblem('https://user:pw@hooks.example.com/x', false), 'must not contain credentials');
  t.is(outboundUrlProblem('not a url', false), 'must be an absolute URL');
  for (const url of ['https://hooks.example.com/x', 'https://93.184.215.14/x', 'https://[2606:4700::1111]/x']) {
    t.is(outboundUrlProblem(url, false), null, url);
  }
  t.true(isPublicAddress('8.8.8.8'));
  t.false(isPublicAddress('::ffff:8.8.8.8'), 'mapped forms are refused whatever they map');
  t.false(isPublicAddress('not-an-ip'));
});

test('ALLOW_PRIVATE_URLS allows http and private addresses, never other schemes or credentials', (t) => {
  for (const url of REFUSED) t.is(outboundUrlProblem(url.replace('https:', 'http:'), true), null, url);
  t.is(outboundUrlProblem('ftp://127.0.0.1/x', true), 'must be an http or https URL');
  t.is(outboundUrlProblem('http://a:b@127.0.0.1/x', true), 'must not contain credentials');
});

test('on save, a host name resolving to loopback or a private address is refused', async (t) => {
  const resolver: Resolver = async (host) =>
    ({ 'loopback.example.com': ['127.0.0.1'], 'mixed.example.com': ['93.184.215.14', '10.0.0.7'] })[host] ?? [
      '93.184.215.14',
    ];
  const check = (url: string) => checkOutboundUrl(url, { allowPrivate: false, resolver });
  t.is(await check('https://loopback.example.com/x'), 'must point to a public address');
  t.is(await check('https://mixed.example.com/x'), 'must point to a public address', 'any private answer refuses');
  t.is(await check('https://public.example.com/x'), null);
  // With the system resolver: `localhost` resolves to loopback (and is refused by name first).
  t.is(await checkOutboundUrl('https://localhost/x', { allowPrivate: false }), 'must point to a public address');
  // A name that does not resolve (yet) is accepted on save; connect time checks it again.
  const silent: Resolver = () => new Promise(() => {});
  t.is(
    await checkOutboundUrl('https://slow.example.com/x', { allowPrivate: false, resolver: silent, timeoutMs: 50 }),
    null,
  );
});

const request = (url: string, timeoutMs = 3000): WebhookRequest => ({
  url,
  headers: { 'Content-Type': 'application/json' },
  body: '{"id":"evt"}',
  timeout_ms: timeoutMs,
});

test('at connect time, a name that now resolves to loopback is refused and nothing is sent (DNS rebinding)', async (t) => {
  const receiver = await startReceiver();
  const port = new URL(receiver.url).port;
  let calls = 0;
  // Public when the URL is saved, loopback when the delivery connects.
  const rebinding: Resolver = async () => (calls++ === 0 ? ['93.184.215.14'] : ['127.0.0.1']);
  try {
    const url = `https://rebind.example.com:${port}/hook`;
    t.is(await checkOutboundUrl(url, { allowPrivate: false, resolver: rebinding }), null);
    const outcome = await httpWebhookSender({ allowPrivate: false, resolver: rebinding }).send(request(url));
    t.false(outcome.success);
    t.is(outcome.status_code, null);
    t.regex(outcome.error ?? '', /^URL refused: rebind\.example\.com resolves to 127\.0\.0\.1/);
    const literal = await httpWebhookSender({ allowPrivate: false }).send(request(`${receiver.url}/hook`));
    t.is(literal.error, 'URL refused: must be an https URL');
    const https = await httpWebhookSender({ allowPrivate: false }).send(request(`https://127.0.0.1:${port}/hook`));
    t.is(https.error, 'URL refused: must point to a public address');
    t.is(receiver.requests.length, 0, 'the receiver never saw a request');
  } finally {
    await receiver.close();
  }
});

test('the socket connects to the address the guard checked (pinned lookup), with the name as Host', async (t) => {
  const receiver = await startReceiver();
  const port = new URL(receiver.url).port;
  try {
    const resolver: Resolver = async () => ['127.0.0.1'];
    const outcome = await httpWebhookSender({ allowPrivate: true, resolver }).send(
      request(`http://hooks.receiver.test:${port}/in`),
    );
    t.true(outcome.success, outcome.error ?? '');
    t.is(receiver.requests[0].headers.host, `hooks.receiver.test:${port}`);
    t.is(receiver.requests[0].rawBody, '{"id":"evt"}');
  } finally {
    await receiver.close();
  }
});

test('redirects are not followed, the deadline holds, and only the start of a large answer is kept', async (t) => {
  const receiver = await startReceiver((req) => {
    if (req.path === '/moved') return { status: 302, headers: { Location: '/elsewhere' } };
    if (req.path === '/slow') return { status: 200, delayMs: 2000 };
    if (req.path === '/big') return { status: 500, body: 'x'.repeat(100_000) };
    if (req.path === '/nul') return { status: 200, body: 'a\u0000b' };
    return { status: 200 };
  });
  const sender = httpWebhookSender({ allowPrivate: true });
  try {
    const moved = await sender.send(request(`${receiver.url}/moved`));
    t.false(moved.success);
    t.is(moved.status_code, 302);
    t.regex(moved.error ?? '', /redirects are not followed \(to \/elsewhere\)/);

    const slow = await sender.send(request(`${receiver.url}/slow`, 500));
    t.false(slow.success);
    t.is(slow.error, 'no answer within 0.5 s');
    t.true(slow.response_time_ms >= 450 && slow.response_time_ms < 1900, String(slow.response_time_ms));

    const big = await sender.send(request(`${receiver.url}/big`));
    t.is(big.status_code, 500);
    t.is(big.error, 'HTTP 500');
    t.is(big.response_body?.length, 1024);

    const nul = await sender.send(request(`${receiver.url}/nul`));
    t.is(nul.response_body, 'a\uFFFDb', 'NUL cannot be stored in PostgreSQL text');

    await new Promise((resolve) => setTimeout(resolve, 1700));
    t.false(
      receiver.requests.some((r) => r.path === '/elsewhere'),
      'the redirect target was never called',
    );

    const refused = await sender.send(request('http://127.0.0.1:1/closed'));
    t.is(refused.error, 'connection refused');
  } finally {
    await receiver.close();
  }
});
