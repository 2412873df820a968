import { createHash, randomUUID } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { openBytes } from '../../domain/shared/secret-box.js';
import { expectInvalid as invalid } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { type SeededTenant, type SeededUser, seedPlatformTenant, seedUser } from '../helpers/identities.js';
import { minimalPdf, PNG_BYTES } from '../helpers/minimal-pdf.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * KYB files (spec "KYB document": PDF, JPG or PNG, at most 10 MB): checked by their content, never
 * their name, stored encrypted, and given back byte for byte to the owner and to admins only.
 */
let app: TestApp;
let tenant: SeededTenant;
let admin: SeededUser;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  admin = await seedUser(app.ownerDb, { admin: true });
});
test.after.always(() => app?.close());

const JPG_BYTES = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');
/** The start of a Windows executable (DOS header `MZ`, then the PE offset and signature). */
const EXE_BYTES = (() => {
  const exe = Buffer.alloc(512);
  exe.write('MZ', 0, 'latin1');
  exe.writeUInt32LE(0x80, 0x3c);
  exe.write('PE\0\0', 0x80, 'latin1');
  return exe;
})();

const uploadAs = (key: string, type: string, file: { name: string; content: Buffer; mime?: string }) => {
  const form = new FormData();
  form.append('type', type);
  form.append('document', new Blob([file.content], { type: file.mime ?? 'application/pdf' }), file.name);
  return app.request('/api/v1/tenant/kyb/documents', { method: 'POST', headers: { 'X-Tenant-Key': key }, body: form });
};
async function uploaded(t: ExecutionContext, type: string, file: { name: string; content: Buffer; mime?: string }) {
  const res = await uploadAs(tenant.keys.sk_test, type, file);
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  return body.data;
}
const countDocuments = async (tenantId: string) =>
  Number((await app.ownerDb('kyb_documents').where({ tenant_id: tenantId }).count({ n: '*' }))[0].n);

test('an EXE named .pdf, an 11 MB file, a PDF that does not parse, an unknown type: 422 naming the field, nothing stored', async (t) => {
  const refused = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  const upload = (type: string, file: { name: string; content: Buffer }) => uploadAs(refused.keys.sk_test, type, file);
  const exe = await invalid(t, await upload('kbis', { name: 'kbis.pdf', content: EXE_BYTES }), 'document');
  t.regex(exe.errors.document[0], /must be a PDF, JPG or PNG file/);
  const big = Buffer.concat([minimalPdf(), Buffer.alloc(11 * 1024 * 1024, 0x20)]);
  const large = await invalid(t, await upload('kbis', { name: 'kbis.pdf', content: big }), 'document');
  t.regex(large.errors.document[0], /10 MB/);
  const broken = Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n', 'latin1');
  const unreadable = await invalid(t, await upload('kbis', { name: 'kbis.pdf', content: broken }), 'document');
  t.regex(unreadable.errors.document[0], /must be a readable PDF/);
  const pageless = minimalPdf().toString('latin1').replace('/Type /Page ', '/Type /Blank ');
  const noPage = await invalid(
    t,
    await upload('kbis', { name: 'kbis.pdf', content: Buffer.from(pageless, 'latin1') }),
    'document',
  );
  t.regex(noPage.errors.document[0], /no page/);
  const locked = minimalPdf().toString('latin1').replace('/Root 1 0 R', '/Root 1 0 R /Encrypt 3 0 R');
  const encrypted = await invalid(
    t,
    await upload('kbis', { name: 'kbis.pdf', content: Buffer.from(locked, 'latin1') }),
    'document',
  );
  t.regex(encrypted.errors.document[0], /encrypted/);
  await invalid(t, await upload('passport', { name: 'id.png', content: PNG_BYTES }), 'type');
  t.is(await countDocuments(refused.tenantId), 0);
  const status = await app.request('/api/v1/tenant/kyb/status', { headers: { 'X-Tenant-Key': refused.keys.sk_test } });
  t.like((await readJson(status)).data, { status: 'pending', documents_count: 0 });
});

test('a JPG and a PNG are taken by their content, whatever their name and declared type', async (t) => {
  const jpg = await uploaded(t, 'id_card', { name: 'scan.pdf', content: JPG_BYTES, mime: 'application/pdf' });
  t.like(jpg, { type: 'id_card', content_type: 'image/jpeg', size: JPG_BYTES.length, status: 'pending' });
  const png = await uploaded(t, 'proof_of_address', { name: 'facture.txt', content: PNG_BYTES, mime: 'text/plain' });
  t.like(png, { content_type: 'image/png', filename: 'facture.txt' });
  // JSON with base64 is accepted too, like invoices' original_file.
  const res = await app.request('/api/v1/tenant/kyb/documents', {
    method: 'POST',
    headers: { 'X-Tenant-Key': tenant.keys.sk_test, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      type: 'kbis',
      document: { filename: 'kbis.pdf', content: minimalPdf().toString('base64') },
    }),
  });
  t.is(res.status, 201);
  t.is((await readJson(res)).data.content_type, 'application/pdf');
});

test('stored encrypted: the row holds no byte of the file, the download gives the exact file back', async (t) => {
  const pdf = minimalPdf([
    { width: 595, height: 842 },
    { width: 842, height: 595 },
  ]);
  const document = await uploaded(t, 'articles', { name: 'statuts.pdf', content: pdf });
  t.is(document.sha256, createHash('sha256').update(pdf).digest('hex'));

  const row = await app.ownerDb('kyb_documents').where({ id: document.id }).first();
  const sealed: Buffer = row.content_sealed;
  t.false(sealed.includes(pdf.subarray(0, 16)), 'the PDF header is not stored in clear');
  t.false(sealed.includes(Buffer.from('/Type /Catalog')), 'nor any of its objects');
  t.true(sealed.length >= pdf.length);
  const key = app.deps.config.appKey as Buffer;
  t.deepEqual(openBytes(key, sealed, `kyb-document:${document.id}`), pdf);
  // The document id is authenticated with the bytes: they do not open as another document's.
  t.throws(() => openBytes(key, sealed, `kyb-document:${randomUUID()}`));
  // Nor once altered or cut short: the full 16-byte tag is checked.
  const altered = Buffer.from(sealed);
  altered[altered.length - 1] ^= 1;
  t.throws(() => openBytes(key, altered, `kyb-document:${document.id}`));
  t.throws(() => openBytes(key, sealed.subarray(0, 1 + 12 + 8), `kyb-document:${document.id}`), {
    message: /too short/,
  });

  for (const res of [
    await app.request(`/api/v1/tenant/kyb/documents/${document.id}/download`, {
      headers: { 'X-Tenant-Key': tenant.keys.sk_test },
    }),
    await app.request(`/api/v1/admin/kyb/documents/${document.id}/download`, {
      headers: { Authorization: `Bearer ${admin.token}` },
    }),
  ]) {
    t.is(res.status, 200);
    t.is(res.headers.get('content-type'), 'application/pdf');
    t.regex(res.headers.get('content-disposition') ?? '', /statuts\.pdf/);
    t.deepEqual(Buffer.from(await res.arrayBuffer()), pdf);
  }
  const read = await readJson(
    await app.request(`/api/v1/tenant/kyb/documents/${document.id}`, {
      headers: { 'X-Tenant-Key': tenant.keys.sk_test },
    }),
  );
  t.like(read.data, { id: document.id, type: 'articles', filename: 'statuts.pdf', size: pdf.length });
});
