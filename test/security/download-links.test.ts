import { Writable } from 'node:stream';
import test from 'ava';
import { assertLinkCredentialActive } from '../../domain/auth/link-credential.js';
import { LOGGER } from '../../domain/container.js';
import { generateCreditNoteDocuments } from '../../domain/credit-notes/operations/generate-credit-note-documents.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { createLogger } from '../../domain/shared/logger.js';
import { setTenantContext } from '../../domain/shared/tenant-context.js';
import { createCreditNote } from '../helpers/credit-notes.js';
import { readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant, seedUser } from '../helpers/identities.js';
import { createInvoice, setDocumentsStatus, storeDocument } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/** Every log line the web app writes (the access log included), as text. */
const logLines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    logLines.push(chunk.toString());
    done();
  },
});

let app: TestApp;

test.before(async () => {
  app = await startTestApp({
    env: { RATE_LIMIT_SCALE: '0' },
    override: (c) => c.register(LOGGER, { useValue: createLogger('trace', 'web', sink) }),
  });
});
test.after.always(() => app?.close());

const asKey = (key: string) => ({ headers: { 'X-API-Key': key } });
const pathOf = (url: string) => new URL(url).pathname;

async function readyInvoice(tenant: SeededTenant) {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  await storeDocument(app.ownerDb, invoice, tenant.tenantId, 'pdf');
  await setDocumentsStatus(app.ownerDb, invoice.id, 'ready');
  return invoice;
}

const revokeKey = (tenant: SeededTenant) =>
  app
    .ownerDb('api_keys')
    .where({ tenant_id: tenant.tenantId, environment: 'sandbox', kind: 'secret' })
    .update({ status: 'revoked', revoked_at: new Date() });

test.serial('an invoice link stops working once the key that asked for it is revoked', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const invoice = await readyInvoice(tenant);
  const link = await readJson(
    await app.request(`/api/v1/invoices/${invoice.id}/download/pdf`, asKey(tenant.keys.sk_test)),
  );
  t.is((await app.request(pathOf(link.url))).status, 200);
  await revokeKey(tenant);
  const after = await app.request(pathOf(link.url));
  t.is(after.status, 403);
  const body = await readJson(after);
  t.is(body.code, 'DOWNLOAD_LINK_INVALID');
  t.regex(body.message, /revoked/);
});

test.serial('a credit-note link stops working once the key that asked for it is revoked', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  const note = await createCreditNote(app.request, tenant.keys.sk_test, invoice);
  await execute(generateCreditNoteDocuments, { id: note.id }, systemCaller(tenant.tenantId), app.deps);
  const link = await readJson(
    await app.request(`/api/v1/credit-notes/${note.id}/download?link=true`, asKey(tenant.keys.sk_test)),
  );
  t.is((await app.request(pathOf(link.url))).status, 200);
  await revokeKey(tenant);
  const after = await app.request(pathOf(link.url));
  t.is(after.status, 403);
  t.is((await readJson(after)).code, 'DOWNLOAD_LINK_INVALID');
});

test.serial('a link asked for with a dashboard token ends when the token is revoked (or expires)', async (t) => {
  const user = await seedUser(app.ownerDb);
  const row = await app.ownerDb('access_tokens').where({ user_id: user.userId }).first<{ id: string }>('id');
  const claims = { cred: { type: 'access_token' as const, id: row.id, tenant: user.tenantId } };
  const check = () =>
    app.deps.db.transaction(async (tx) => {
      await setTenantContext(tx, { kind: 'anonymous', tenantId: null, environment: null });
      await assertLinkCredentialActive(tx, claims, new Date());
    });
  await t.notThrowsAsync(check());
  await app.ownerDb('access_tokens').where({ id: row.id }).update({ revoked_at: new Date() });
  const err = await t.throwsAsync(check());
  t.is((err as { code?: string }).code, 'DOWNLOAD_LINK_INVALID');
});

test.serial('a download token never appears in a log line, whatever the path spelling', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const invoice = await readyInvoice(tenant);
  const link = await readJson(
    await app.request(`/api/v1/invoices/${invoice.id}/download/pdf`, asKey(tenant.keys.sk_test)),
  );
  const token = pathOf(link.url).split('/').pop()!;
  logLines.length = 0;
  t.is((await app.request(`/api/v1/files/${token}`)).status, 200);
  t.is((await app.request(`/API/V1/FILES/${token}`)).status, 200, 'the router ignores case');
  t.is((await app.request(`/api/v1/files/${token}x`)).status, 403);
  t.is((await app.request(`/api/v1/files/credit-notes/${token}`)).status, 403);
  await new Promise((resolve) => setImmediate(resolve));
  const access = logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
  t.is(access.length, 4);
  t.deepEqual(
    access.map((l) => l.path),
    [
      '/api/v1/files/[REDACTED]',
      '/API/V1/FILES/[REDACTED]',
      '/api/v1/files/[REDACTED]',
      '/api/v1/files/credit-notes/[REDACTED]',
    ],
  );
  const body = token.split('.')[0];
  for (const line of logLines) {
    t.false(line.includes(body), `no part of the token in: ${line}`);
  }
});
