import { createHash } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { CLOCK } from '../../domain/container.js';
import { findInvoiceDocument, listInvoiceDocuments } from '../../domain/invoicing/document-store.js';
import type { Clock } from '../../domain/shared/clock.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice, setDocumentsStatus, storeDocument } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** A clock the tests move: links are signed and checked against it. */
let offsetMs = 0;
const clock: Clock = { now: () => new Date(Date.now() + offsetMs) };

const BASE_URL = 'https://api.example.test';
let app: TestApp;
let tenant: SeededTenant;
let stranger: SeededTenant;

test.before(async () => {
  app = await startTestApp({
    env: { RATE_LIMIT_SCALE: '0', PUBLIC_BASE_URL: BASE_URL },
    override: (container) => container.register(CLOCK, { useValue: clock }),
  });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  stranger = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.afterEach.always(() => {
  offsetMs = 0;
});
test.after.always(() => app?.close());

const asKey = (key: string) => ({ 'X-API-Key': key });
const linkRequest = (id: string, type: string, key = tenant.keys.sk_test, prefix = '/api/v1/invoices') =>
  app.request(`${prefix}/${id}/download/${type}`, { headers: asKey(key) });

/** The link's path, fetched on the test server without any credential. */
const fetchLink = (url: string) => app.request(url.slice(BASE_URL.length));

/** A sandbox invoice of `tenant` whose files the worker has generated (as `kinds`). */
async function readyInvoice(kinds: Parameters<typeof storeDocument>[3][], overrides = {}) {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test, overrides);
  for (const kind of kinds) await storeDocument(app.ownerDb, invoice, tenant.tenantId, kind);
  await setDocumentsStatus(app.ownerDb, invoice.id, 'ready');
  return invoice;
}

async function link(t: ExecutionContext, res: Response): Promise<{ url: string; expires_at: string }> {
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  t.deepEqual(Object.keys(body).sort(), ['expires_at', 'url']);
  return body;
}

test.serial('a pdf link: absolute URL, 15 minutes, serves the bytes without credentials', async (t) => {
  const invoice = await readyInvoice(['facturx', 'cii']);
  const before = clock.now();
  const { url, expires_at } = await link(t, await linkRequest(invoice.id, 'pdf'));
  const after = clock.now();
  t.true(url.startsWith(`${BASE_URL}/api/v1/files/`), url);
  // 15 minutes from the moment the link was signed, in whole seconds (the token's `exp`).
  const expires = new Date(expires_at).getTime();
  const earliest = Math.floor(before.getTime() / 1000) * 1000 + 900_000;
  const latest = Math.floor(after.getTime() / 1000) * 1000 + 900_000;
  t.true(
    expires >= earliest && expires <= latest,
    `expires ${expires_at}, signed between ${before.toISOString()} and ${after.toISOString()}`,
  );

  const res = await fetchLink(url);
  t.is(res.status, 200);
  t.is(res.headers.get('content-type'), 'application/pdf');
  t.is(
    res.headers.get('content-disposition'),
    `attachment; filename="${invoice.invoice_number}-facturx.pdf"; filename*=UTF-8''${invoice.invoice_number}-facturx.pdf`,
  );
  t.is(res.headers.get('cache-control'), 'private, no-store');
  const bytes = Buffer.from(await res.arrayBuffer());
  const stored = await findInvoiceDocument(app.ownerDb, invoice.id, 'facturx');
  t.deepEqual(bytes, stored!.content, 'without a separate PDF, the Factur-X PDF/A-3 is the readable PDF');
  t.is(createHash('sha256').update(bytes).digest('hex'), stored!.sha256);
  t.is(stored!.byte_size, bytes.length);
});

test.serial('the link works until its 15 minutes are over, then answers 410 DOWNLOAD_LINK_EXPIRED', async (t) => {
  const invoice = await readyInvoice(['ubl', 'pdf'], { output_format: 'ubl' });
  const { url } = await link(t, await linkRequest(invoice.id, 'converted'));
  offsetMs = 14 * 60_000;
  const late = await fetchLink(url);
  t.is(late.status, 200);
  t.is(late.headers.get('content-type'), 'application/xml');
  t.regex(Buffer.from(await late.arrayBuffer()).toString(), /kind="ubl"/);
  offsetMs = 15 * 60_000 + 1000;
  const body = await expectRefusal(t, await fetchLink(url), 410, 'DOWNLOAD_LINK_EXPIRED');
  t.regex(body.message, /15 minutes/);
});

test.serial('an altered or made-up link answers 403 DOWNLOAD_LINK_INVALID', async (t) => {
  const mine = await readyInvoice(['pdf', 'facturx', 'cii']);
  const other = await readyInvoice(['pdf', 'facturx', 'cii']);
  const { url } = await link(t, await linkRequest(mine.id, 'pdf'));
  const token = url.slice(url.lastIndexOf('/') + 1);
  const [body, signature] = token.split('.');
  const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
  const retargeted = Buffer.from(JSON.stringify({ ...claims, invoice_id: other.id })).toString('base64url');
  const prolonged = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 86_400 })).toString('base64url');
  const flipped = signature.slice(0, -2) + (signature.at(-2) === 'A' ? 'B' : 'A') + signature.at(-1);
  for (const forged of [`${retargeted}.${signature}`, `${prolonged}.${signature}`, `${body}.${flipped}`, body, 'x.y']) {
    await expectRefusal(t, await app.request(`/api/v1/files/${forged}`), 403, 'DOWNLOAD_LINK_INVALID');
  }
  t.is((await fetchLink(url)).status, 200, 'the genuine link still works');
});

test.serial(
  'while the files are pending: rendered for the request, then served; failed: 409 with the reason',
  async (t) => {
    const invoice = await createInvoice(app.request, tenant.keys.sk_test);
    t.is(invoice.documents_status, 'pending');
    for (const type of ['pdf', 'converted']) {
      const { url } = await link(t, await linkRequest(invoice.id, type));
      const served = Buffer.from(await (await fetchLink(url)).arrayBuffer());
      t.deepEqual(served, (await findInvoiceDocument(app.ownerDb, invoice.id, 'facturx'))!.content, type);
    }
    const failing = await createInvoice(app.request, tenant.keys.sk_test);
    await setDocumentsStatus(app.ownerDb, failing.id, 'failed', 'font not found');
    const failed = await expectRefusal(t, await linkRequest(failing.id, 'pdf'), 409, 'DOCUMENT_GENERATION_FAILED');
    t.regex(failed.message, /font not found/);
  },
);

test.serial(
  'original: 404 FILE_NOT_FOUND without an upload; served as uploaded, even while the rest is pending',
  async (t) => {
    const without = await readyInvoice(['pdf', 'facturx', 'cii']);
    await expectRefusal(t, await linkRequest(without.id, 'original'), 404, 'FILE_NOT_FOUND');

    const invoice = await createInvoice(app.request, tenant.keys.sk_test);
    const uploaded = Buffer.from('%PDF-1.4 the caller original\n%%EOF\n');
    await storeDocument(app.ownerDb, invoice, tenant.tenantId, 'original', uploaded);
    const { url } = await link(t, await linkRequest(invoice.id, 'original'));
    t.deepEqual(Buffer.from(await (await fetchLink(url)).arrayBuffer()), uploaded);
    // The original is never replaced; generated files are.
    await storeDocument(app.ownerDb, invoice, tenant.tenantId, 'original', Buffer.from('%PDF-1.4 another\n'));
    t.deepEqual(Buffer.from(await (await fetchLink(url)).arrayBuffer()), uploaded);
    await storeDocument(app.ownerDb, invoice, tenant.tenantId, 'pdf', Buffer.from('%PDF-1.7 first\n'));
    await storeDocument(app.ownerDb, invoice, tenant.tenantId, 'pdf', Buffer.from('%PDF-1.7 second\n'));
    const kinds = await listInvoiceDocuments(app.ownerDb, invoice.id);
    t.deepEqual(kinds.map((d) => d.kind).sort(), ['original', 'pdf']);
    t.is((await findInvoiceDocument(app.ownerDb, invoice.id, 'pdf'))!.content.toString(), '%PDF-1.7 second\n');
  },
);

test.serial('converted is the output format’s file; pdf prefers the readable PDF', async (t) => {
  const cases = [
    { format: 'facturx', kinds: ['facturx', 'cii'], converted: 'facturx', pdf: 'facturx' },
    { format: 'ubl', kinds: ['ubl', 'pdf'], converted: 'ubl', pdf: 'pdf' },
    { format: 'cii', kinds: ['cii', 'pdf'], converted: 'cii', pdf: 'pdf' },
  ] as const;
  for (const c of cases) {
    const invoice = await readyInvoice([...c.kinds], { output_format: c.format });
    for (const [type, kind] of [
      ['converted', c.converted],
      ['pdf', c.pdf],
    ] as const) {
      const { url } = await link(t, await linkRequest(invoice.id, type));
      const served = Buffer.from(await (await fetchLink(url)).arrayBuffer());
      t.deepEqual(served, (await findInvoiceDocument(app.ownerDb, invoice.id, kind))!.content, `${c.format} ${type}`);
    }
  }
  // xml and facturx are the sandbox route's types; the production route takes original, converted, pdf.
  const invoice = await readyInvoice(['facturx', 'cii']);
  await expectInvalid(t, await linkRequest(invoice.id, 'xml'), 'type');
});

test.serial(
  'sandbox downloads: pdf, xml (CII or UBL), facturx; 409 CONVERSION_REQUIRED; 422 for another type',
  async (t) => {
    const sandbox = '/api/v1/sandbox/invoices';
    const facturx = await readyInvoice(['facturx', 'cii']);
    const ubl = await readyInvoice(['ubl', 'pdf'], { output_format: 'ubl' });
    const served = async (id: string, type: string) => {
      const { url } = await link(t, await linkRequest(id, type, tenant.keys.sk_test, sandbox));
      const res = await fetchLink(url);
      return { type: res.headers.get('content-type'), text: Buffer.from(await res.arrayBuffer()).toString() };
    };
    t.like(await served(facturx.id, 'xml'), {
      type: 'application/xml',
      text: `<?xml version="1.0"?><Invoice kind="cii" id="${facturx.id}"/>`,
    });
    t.like(await served(facturx.id, 'facturx'), {
      type: 'application/pdf',
      text: `%PDF-1.7 facturx ${facturx.id}\n%%EOF\n`,
    });
    t.like(await served(facturx.id, 'pdf'), {
      type: 'application/pdf',
      text: `%PDF-1.7 facturx ${facturx.id}\n%%EOF\n`,
    });
    t.like(await served(ubl.id, 'xml'), {
      type: 'application/xml',
      text: `<?xml version="1.0"?><Invoice kind="ubl" id="${ubl.id}"/>`,
    });
    t.like(await served(ubl.id, 'pdf'), { type: 'application/pdf', text: `%PDF-1.7 pdf ${ubl.id}\n%%EOF\n` });

    const refused = await expectRefusal(
      t,
      await linkRequest(ubl.id, 'facturx', tenant.keys.sk_test, sandbox),
      409,
      'CONVERSION_REQUIRED',
    );
    t.regex(refused.message, /POST \/v1\/invoices\/convert/);
    for (const type of ['original', 'converted', 'docx']) {
      const body = await expectInvalid(t, await linkRequest(facturx.id, type, tenant.keys.sk_test, sandbox), 'type');
      t.is(typeof body.message, 'string');
    }
    await expectRefusal(
      t,
      await linkRequest(facturx.id, 'pdf', tenant.keys.sk_live, sandbox),
      403,
      'API_KEY_ENVIRONMENT_MISMATCH',
    );
  },
);

test.serial("another tenant's invoice, or the other environment's, answers 404 for a link", async (t) => {
  const invoice = await readyInvoice(['pdf', 'facturx', 'cii']);
  await expectRefusal(t, await linkRequest(invoice.id, 'pdf', stranger.keys.sk_test), 404, 'NOT_FOUND');
  await expectRefusal(t, await linkRequest(invoice.id, 'pdf', tenant.keys.sk_live), 404, 'NOT_FOUND');
  await expectRefusal(
    t,
    await linkRequest(invoice.id, 'pdf', stranger.keys.sk_test, '/api/v1/sandbox/invoices'),
    404,
    'NOT_FOUND',
  );
});
