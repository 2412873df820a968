import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { fetchPublicFile, OutboundFetchFailed } from '../../domain/shared/outbound-fetch.js';
import { readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * `create_signature` with `document_url`: the server fetches the PDF (SSRF guard, no redirects,
 * 20 MB and 20 s), then checks it as an upload. Loopback is allowed here (ALLOW_PRIVATE_URLS), as a
 * development machine allows it; the guard's refusal of private addresses is checked on its own.
 */
const PDF = minimalPdf();
let app: TestApp;
let files: http.Server;
let filesUrl: string;
let key: string;

test.before(async () => {
  files = http.createServer((req, res) => {
    if (req.url === '/contract.pdf') res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF);
    else if (req.url === '/moved.pdf') res.writeHead(302, { location: '/contract.pdf' }).end();
    else if (req.url === '/not-a-pdf') res.writeHead(200, { 'content-type': 'text/plain' }).end('hello');
    else if (req.url === '/huge.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const push = () => {
        while (sent < 25 && res.write(chunk)) sent++;
        if (sent < 25) res.once('drain', push);
        else res.end();
      };
      push();
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', ALLOW_PRIVATE_URLS: 'true' } });
  key = (await seedPlatformTenant(app.ownerDb, { kyb: 'verified' })).keys.sk_test;
});
test.after.always(async () => {
  await app?.close();
  files?.close();
});

const rpc = (body: unknown, headers: Record<string, string> = {}) =>
  app.request('/mcp', {
    method: 'POST',
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

async function createSignature(args: Record<string, unknown>) {
  const init = await rpc({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18' } });
  const session = init.headers.get('mcp-session-id') as string;
  const res = await rpc(
    {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: {
        name: 'create_signature',
        arguments: {
          document_name: 'contract.pdf',
          signer: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' },
          ...args,
        },
      },
    },
    { 'Mcp-Session-Id': session },
  );
  return (await readJson(res)).result;
}

test.serial('a document named by URL is fetched and signed like an upload', async (t) => {
  const result = await createSignature({ document_url: `${filesUrl}/contract.pdf` });
  t.falsy(result.isError, result.content[0].text);
  const created = JSON.parse(result.content[0].text);
  const stored = await app
    .ownerDb('signature_documents')
    .where({ signature_request_id: created.id, kind: 'original' })
    .first();
  t.is(Buffer.compare(stored.content, PDF), 0, 'the fetched bytes are the document');
});

test.serial(
  'a redirect, a file that is not a PDF, one over 20 MB, or both sources at once: an error naming the argument',
  async (t) => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ document_url: `${filesUrl}/moved.pdf` }, /document_url.*redirects are not followed/],
      [{ document_url: `${filesUrl}/not-a-pdf` }, /document/],
      [{ document_url: `${filesUrl}/huge.pdf` }, /document_url.*larger than 20971520 bytes/],
      [{ document_url: `${filesUrl}/contract.pdf`, document_base64: PDF.toString('base64') }, /exactly one of/],
      [{}, /exactly one of/],
    ];
    for (const [args, message] of cases) {
      const result = await createSignature(args);
      t.true(result.isError, JSON.stringify(args));
      t.regex(result.content[0].text, message);
    }
    t.is(
      await app
        .ownerDb('signature_requests')
        .where({ title: 'contract.pdf', environment: 'sandbox' })
        .count('* as n')
        .first()
        .then((r) => Number(r?.n)),
      1,
      'only the good one was created',
    );
  },
);

test('without ALLOW_PRIVATE_URLS the guard refuses loopback, private names and plain http', async (t) => {
  const options = { allowPrivate: false, maxBytes: 1024, timeoutMs: 2000 };
  for (const url of [
    `${filesUrl}/contract.pdf`,
    'https://127.0.0.1/x.pdf',
    'https://localhost/x.pdf',
    'https://10.0.0.1/x.pdf',
  ]) {
    const err = await t.throwsAsync(fetchPublicFile(url, options), { instanceOf: OutboundFetchFailed });
    t.regex(err.message, /https|public address/);
  }
  const resolvesPrivate = await t.throwsAsync(
    fetchPublicFile('https://files.example.com/x.pdf', { ...options, resolver: async () => ['192.168.1.5'] }),
    { instanceOf: OutboundFetchFailed },
  );
  t.regex(resolvesPrivate.message, /not a public address/);
});
