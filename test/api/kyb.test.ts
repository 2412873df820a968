import test, { type ExecutionContext } from 'ava';
import type { MailMessage } from '../../domain/mail/mailer.js';
import { sendKybStatusMail } from '../../workers/handlers/send-kyb-status-mail.js';
import { expectRefusal as refusal } from '../helpers/assertions.js';
import { readJson } from '../helpers/http.js';
import { type SeededTenant, type SeededUser, seedPlatformTenant, seedUser } from '../helpers/identities.js';
import { minimalPdf, PNG_BYTES } from '../helpers/minimal-pdf.js';
import { queuedJobs } from '../helpers/seed.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * KYB through the API (spec "KYB documents", "KYB status"): a tenant uploads its documents with its
 * sandbox key, an admin reviews them, and the production key that was refused works at once.
 */
let app: TestApp;
let admin: SeededUser;
const mails: MailMessage[] = [];

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  admin = await seedUser(app.ownerDb, { admin: true });
  app.deps.mailer = { send: async (message) => void mails.push(message) };
});
test.after.always(() => app?.close());

/** A small JPEG by its signature (SOI, JFIF APP0, EOI). */
const JPG_BYTES = Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex');

const upload = (key: string, type: string, file: { name: string; content: Buffer; mime?: string }) => {
  const form = new FormData();
  form.append('type', type);
  form.append('document', new Blob([file.content], { type: file.mime ?? 'application/octet-stream' }), file.name);
  return app.request('/api/v1/tenant/kyb/documents', { method: 'POST', headers: { 'X-Tenant-Key': key }, body: form });
};
const asTenant = (key: string, path: string, method = 'GET') =>
  app.request(`/api/v1/tenant/kyb${path}`, { method, headers: { 'X-Tenant-Key': key } });
const asAdmin = (path: string, body?: unknown, token = admin.token) =>
  app.request(`/api/v1/admin/kyb${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
const review = (documentId: string, decision: 'approve' | 'reject', reason?: string) =>
  asAdmin(`/documents/${documentId}/review`, { decision, ...(reason ? { reason } : {}) });

async function uploaded(t: ExecutionContext, key: string, type: string, file: { name: string; content: Buffer }) {
  const res = await upload(key, type, file);
  const body = await readJson(res);
  t.is(res.status, 201, JSON.stringify(body));
  return body.data as { id: string; status: string; content_type: string; sha256: string; size: number };
}
async function statusOf(t: ExecutionContext, key: string) {
  const res = await asTenant(key, '/status');
  t.is(res.status, 200);
  return (await readJson(res)).data;
}
async function reviewed(t: ExecutionContext, documentId: string, decision: 'approve' | 'reject', reason?: string) {
  const res = await review(documentId, decision, reason);
  const body = await readJson(res);
  t.is(res.status, 200, JSON.stringify(body));
  return body.data;
}
/** The production request the gate refuses before verification: the tenant's own profile. */
const productionCall = (tenant: SeededTenant) =>
  app.request('/api/v1/tenant/me', { headers: { 'X-Tenant-Key': tenant.keys.sk_live } });
const statusEvents = async (tenantId: string) =>
  (
    await app
      .ownerDb('events')
      .where({ tenant_id: tenantId, name: 'kyb.status_changed', environment: 'sandbox' })
      .orderBy('created_at')
      .select('data')
  ).map((row) => `${row.data.previous_status}->${row.data.status}`);
/** Runs the tenant's queued KYB mail jobs (as the worker would) and returns the subjects sent to it. */
async function mailSubjects(tenant: SeededTenant): Promise<string[]> {
  const jobs = await queuedJobs(app.ownerDb, 'send-kyb-status-mail');
  for (const job of jobs.filter((j) => (j as { tenantId: string }).tenantId === tenant.tenantId)) {
    await sendKybStatusMail(job as Parameters<typeof sendKybStatusMail>[0], app.deps);
  }
  return mails.filter((m) => m.to === tenant.email).map((m) => m.subject);
}

test('three documents, an admin approves them, and the refused production key works at once', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  await refusal(t, await productionCall(tenant), 403, 'KYC_REQUIRED');
  t.like(await statusOf(t, tenant.keys.sk_test), {
    status: 'pending',
    verified_at: null,
    documents_count: 0,
    rejection_reason: null,
    missing_documents: ['kbis', 'id_card', 'articles'],
  });

  const kbis = await uploaded(t, tenant.keys.sk_test, 'kbis', { name: 'kbis.pdf', content: minimalPdf() });
  const idCard = await uploaded(t, tenant.keys.sk_test, 'id_card', { name: 'id.jpg', content: JPG_BYTES });
  const articles = await uploaded(t, tenant.keys.sk_test, 'articles', { name: 'statuts.png', content: PNG_BYTES });
  t.deepEqual(
    [kbis.content_type, idCard.content_type, articles.content_type],
    ['application/pdf', 'image/jpeg', 'image/png'],
  );
  t.like(await statusOf(t, tenant.keys.sk_test), {
    status: 'documents_submitted',
    documents_count: 3,
    missing_documents: [],
  });

  const pending = await asAdmin('/pending?per_page=100');
  t.is(pending.status, 200);
  const waiting = (await readJson(pending)).data.find(
    (row: { tenant_id: string }) => row.tenant_id === tenant.tenantId,
  );
  t.is(waiting?.kyb_status, 'documents_submitted');
  t.deepEqual(
    waiting?.documents.map((d: { id: string; status: string }) => [d.id, d.status]),
    [
      [kbis.id, 'pending'],
      [idCard.id, 'pending'],
      [articles.id, 'pending'],
    ],
  );

  t.like((await reviewed(t, kbis.id, 'approve')).kyb, { status: 'under_review' });
  t.like((await reviewed(t, idCard.id, 'approve')).kyb, { status: 'under_review' });
  await refusal(t, await productionCall(tenant), 403, 'KYC_REQUIRED');
  const last = await reviewed(t, articles.id, 'approve');
  t.like(last, { tenant_id: tenant.tenantId, document: { id: articles.id, status: 'approved' } });
  t.is(last.kyb.status, 'verified');

  // No cache keeps the old status: the very next production request is served.
  const production = await productionCall(tenant);
  t.is(production.status, 200, JSON.stringify(await readJson(production.clone())));
  t.is((await readJson(production)).data.kyb_status, 'verified');
  const status = await statusOf(t, tenant.keys.sk_live);
  t.is(status.status, 'verified');
  t.truthy(status.verified_at);

  // A verified tenant has left the queue.
  const after = await readJson(await asAdmin('/pending?per_page=100'));
  t.false(after.data.some((row: { tenant_id: string }) => row.tenant_id === tenant.tenantId));
  t.deepEqual(await statusEvents(tenant.tenantId), [
    'pending->documents_submitted',
    'documents_submitted->under_review',
    'under_review->verified',
  ]);
  t.deepEqual(await mailSubjects(tenant), [
    'Your KYB documents were received',
    'Your KYB is under review',
    'Your KYB is verified: production is open',
  ]);
});

test('a rejection needs a reason, tells the tenant why, and new documents go back to review', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  const kbis = await uploaded(t, tenant.keys.sk_test, 'kbis', { name: 'kbis.pdf', content: minimalPdf() });
  const idCard = await uploaded(t, tenant.keys.sk_test, 'id_card', { name: 'id.png', content: PNG_BYTES });

  const noReason = await review(idCard.id, 'reject');
  t.is(noReason.status, 422);
  t.truthy((await readJson(noReason)).errors.reason);
  t.is((await statusOf(t, tenant.keys.sk_test)).status, 'documents_submitted', 'a refused decision changes nothing');

  const rejected = await reviewed(t, idCard.id, 'reject', 'The identity document has expired.');
  t.like(rejected.document, { status: 'rejected', review_reason: 'The identity document has expired.' });
  t.like(await statusOf(t, tenant.keys.sk_test), {
    status: 'rejected',
    rejection_reason: 'identity document refused: The identity document has expired.',
    missing_documents: ['id_card', 'articles'],
  });
  await refusal(t, await review(idCard.id, 'approve'), 409, 'INVALID_STATE');
  // Approving the Kbis meanwhile records the document; the tenant stays rejected until it sends new ones.
  t.is((await reviewed(t, kbis.id, 'approve')).kyb.status, 'rejected');

  const newCard = await uploaded(t, tenant.keys.sk_test, 'id_card', { name: 'id.jpg', content: JPG_BYTES });
  t.like(await statusOf(t, tenant.keys.sk_test), { status: 'documents_submitted', rejection_reason: null });
  const articles = await uploaded(t, tenant.keys.sk_test, 'articles', { name: 'a.pdf', content: minimalPdf() });
  t.is((await reviewed(t, newCard.id, 'approve')).kyb.status, 'under_review');
  t.is((await reviewed(t, articles.id, 'approve')).kyb.status, 'verified');
  t.is((await productionCall(tenant)).status, 200);
  t.deepEqual(await statusEvents(tenant.tenantId), [
    'pending->documents_submitted',
    'documents_submitted->under_review',
    'under_review->rejected',
    'rejected->documents_submitted',
    'documents_submitted->under_review',
    'under_review->verified',
  ]);
  t.true((await mailSubjects(tenant)).includes('Your KYB was refused'));
  t.true(mails.some((m) => m.to === tenant.email && m.text.includes('The identity document has expired.')));
});

test('deletion: allowed before verification (the last one takes the KYB back to pending), 409 after', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  const kbis = await uploaded(t, tenant.keys.sk_test, 'kbis', { name: 'kbis.pdf', content: minimalPdf() });
  const deleted = await asTenant(tenant.keys.sk_test, `/documents/${kbis.id}`, 'DELETE');
  t.is(deleted.status, 200);
  t.deepEqual(await readJson(deleted), { message: 'KYB document deleted.', id: kbis.id });
  t.is((await asTenant(tenant.keys.sk_test, `/documents/${kbis.id}`)).status, 404);
  t.like(await statusOf(t, tenant.keys.sk_test), { status: 'pending', documents_count: 0 });

  const ids = [];
  for (const [type, content] of [
    ['kbis', minimalPdf()],
    ['id_card', JPG_BYTES],
    ['articles', PNG_BYTES],
  ] as const) {
    ids.push((await uploaded(t, tenant.keys.sk_test, type, { name: `${type}.bin`, content })).id);
  }
  for (const id of ids) await reviewed(t, id, 'approve');
  await refusal(t, await asTenant(tenant.keys.sk_test, `/documents/${ids[0]}`, 'DELETE'), 409, 'INVALID_STATE');
  await refusal(
    t,
    await upload(tenant.keys.sk_test, 'proof_of_address', { name: 'p.pdf', content: minimalPdf() }),
    409,
    'INVALID_STATE',
  );
  const list = await readJson(await asTenant(tenant.keys.sk_live, '/documents'));
  t.deepEqual(
    list.data.map((d: { id: string; status: string }) => [d.id, d.status]),
    ids.map((id) => [id, 'approved']),
  );
});

test('another tenant sees none of it: 404 on read, download, delete; admin routes refuse everyone but admins', async (t) => {
  const owner = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'pending' });
  const kbis = await uploaded(t, owner.keys.sk_test, 'kbis', { name: 'kbis.pdf', content: minimalPdf() });
  await refusal(t, await asTenant(other.keys.sk_test, `/documents/${kbis.id}`), 404, 'NOT_FOUND');
  await refusal(t, await asTenant(other.keys.sk_test, `/documents/${kbis.id}/download`), 404, 'NOT_FOUND');
  await refusal(t, await asTenant(other.keys.sk_test, `/documents/${kbis.id}`, 'DELETE'), 404, 'NOT_FOUND');
  t.deepEqual((await readJson(await asTenant(other.keys.sk_test, '/documents'))).data, []);
  t.is((await app.ownerDb('kyb_documents').where({ id: kbis.id }).first())?.tenant_id, owner.tenantId);

  const user = await seedUser(app.ownerDb);
  await refusal(t, await asAdmin(`/documents/${kbis.id}/download`, undefined, user.token), 403, 'FORBIDDEN');
  await refusal(t, await asAdmin('/pending', undefined, user.token), 403, 'FORBIDDEN');
  const withKey = await app.request(`/api/v1/admin/kyb/documents/${kbis.id}/download`, {
    headers: { 'X-Tenant-Key': owner.keys.sk_test },
  });
  t.is(withKey.status, 401);
  await refusal(t, await asAdmin(`/documents/00000000-0000-4000-8000-000000000000/download`), 404, 'NOT_FOUND');
});
