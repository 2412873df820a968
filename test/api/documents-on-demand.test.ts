import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import test, { type ExecutionContext } from 'ava';
import { listInvoiceDocuments } from '../../domain/invoicing/document-store.js';
import { type GeneratedDocuments, ON_DEMAND_MAX_LINES } from '../../domain/invoicing/generated-documents.js';
import { BOSS_SCHEMA } from '../../domain/shared/boss.js';
import { generateCreditNoteDocumentsJob } from '../../workers/handlers/generate-credit-note-documents.js';
import { generateInvoiceDocumentsJob } from '../../workers/handlers/generate-invoice-documents.js';
import { expectRefusal } from '../helpers/assertions.js';
import { createCreditNote } from '../helpers/credit-notes.js';
import { validateAll } from '../helpers/einvoice-validator.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice, invoiceBody } from '../helpers/invoices.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Downloads asked for before the document worker ran: the link request renders the files itself,
 * as the worker would, and records them once, whoever comes first; the worker's job then skips.
 * No worker runs here: the jobs are run by hand, when the test says.
 */
let app: TestApp;
let tenant: SeededTenant;
let dir: string;

test.before(async () => {
  // Room for every request of the race below to wait on the row lock with a connection in hand.
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', DATABASE_POOL_MAX: '24' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  dir = await mkdtemp(path.join(tmpdir(), 'documents-on-demand-'));
});
test.after.always(async () => {
  await app?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const headers = () => ({ 'X-API-Key': tenant.keys.sk_test });
const get = (pathname: string) => app.request(pathname, { headers: headers() });

/** The link's answer: 200 `{url, expires_at}`, then the bytes it serves. */
async function download(t: ExecutionContext, pathname: string): Promise<Buffer> {
  const res = await get(pathname);
  const body = await readJson(res);
  t.is(res.status, 200, `${pathname}: ${JSON.stringify(body)}`);
  t.deepEqual(Object.keys(body).sort(), ['expires_at', 'url']);
  const file = await app.request(new URL(body.url).pathname);
  t.is(file.status, 200);
  return Buffer.from(await file.arrayBuffer());
}

/** A credit note's download: 200 and the file itself, of this media type. */
async function downloadFile(t: ExecutionContext, pathname: string, type: string): Promise<Buffer> {
  const res = await get(pathname);
  t.is(res.status, 200, pathname);
  t.true((res.headers.get('content-type') ?? '').startsWith(type), `${pathname}: ${res.headers.get('content-type')}`);
  return Buffer.from(await res.arrayBuffer());
}

const auditActions = async (entityId: string) =>
  (await app.ownerDb('audit_entries').where({ entity_id: entityId }).orderBy('sequence_number').select('action')).map(
    (e: { action: string }) => e.action,
  );

/** Sessions of this test's database waiting for a lock (the row lock of the race). */
async function lockWaiters(): Promise<number> {
  const { rows } = await app.ownerDb.raw(
    "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
  );
  return rows[0].n;
}

async function waitForLockWaiters(n: number): Promise<void> {
  for (let i = 0; i < 500 && (await lockWaiters()) < n; i++) await sleep(20);
  if ((await lockWaiters()) < n) throw new Error(`${n} lock waiters expected, ${await lockWaiters()} seen`);
}

test.serial(
  'right after creation, without the worker: 200 and a file the official validator passes (Factur-X, UBL, CII, credit note)',
  async (t) => {
    t.timeout(5 * 60_000);
    const written: { file: string; label: string }[] = [];
    const keep = async (label: string, extension: string, bytes: Buffer) => {
      const file = path.join(dir, `${written.length}-${label}.${extension}`);
      await writeFile(file, bytes);
      written.push({ file, label });
    };
    for (const format of ['facturx', 'ubl', 'cii'] as const) {
      const invoice = await createInvoice(app.request, tenant.keys.sk_test, { output_format: format });
      t.is(invoice.documents_status, 'pending');
      const converted = await download(t, `/api/v1/invoices/${invoice.id}/download/converted`);
      await keep(format, format === 'facturx' ? 'pdf' : 'xml', converted);
      t.is((await download(t, `/api/v1/invoices/${invoice.id}/download/pdf`)).subarray(0, 5).toString(), '%PDF-');
      const job = (await generateInvoiceDocumentsJob(
        { tenantId: tenant.tenantId, invoiceId: invoice.id },
        app.deps,
      )) as GeneratedDocuments;
      t.is(job.documents_status, 'skipped', `${format}: the worker finds the files made`);
      t.deepEqual(await auditActions(invoice.id), ['invoice.created', 'invoice.documents_generated']);
      const view = await readJson(await get(`/api/v1/invoices/${invoice.id}`));
      t.is(view.data.documents_status, 'ready');
    }
    // The sandbox route's own types render the same way.
    const sandbox = await createInvoice(app.request, tenant.keys.sk_test);
    await keep('sandbox-facturx', 'pdf', await download(t, `/api/v1/sandbox/invoices/${sandbox.id}/download/facturx`));

    const invoice = await createInvoice(app.request, tenant.keys.sk_test);
    const note = await createCreditNote(app.request, tenant.keys.sk_test, invoice);
    t.is(note.documents_status, 'pending');
    for (const kind of ['facturx', 'ubl', 'cii'] as const) {
      const type = kind === 'facturx' ? 'application/pdf' : 'application/xml';
      const bytes = await downloadFile(t, `/api/v1/credit-notes/${note.id}/download?type=${kind}`, type);
      await keep(`credit-note-${kind}`, kind === 'facturx' ? 'pdf' : 'xml', bytes);
    }
    const pdf = await downloadFile(t, `/api/v1/credit-notes/${note.id}/download`, 'application/pdf');
    t.is(pdf.subarray(0, 5).toString(), '%PDF-');
    const linked = await download(t, `/api/v1/credit-notes/${note.id}/download?link=true`);
    t.true(linked.equals(pdf), 'the link serves the same file');
    const job = (await generateCreditNoteDocumentsJob(
      { tenantId: tenant.tenantId, creditNoteId: note.id },
      app.deps,
    )) as GeneratedDocuments;
    t.is(job.documents_status, 'skipped');
    t.deepEqual(
      (await auditActions(note.id)).filter((a) => a === 'credit_note.documents_generated'),
      ['credit_note.documents_generated'],
    );

    const report = validateAll(written.map((w) => w.file));
    for (const w of written) {
      const result = report.files.find((f) => f.file === w.file);
      const errors = result?.errors.map((e) => `  [${e.rule}] ${e.message}`).join('\n');
      t.true(result?.valid === true && result.errors.length === 0, `${w.label}\n${errors ?? 'no report'}`);
    }
    t.is(written.length, 7);
  },
);

test.serial(
  '10 concurrent link requests and the worker’s job on one pending invoice: one set of files, one audit entry, the job skips',
  async (t) => {
    const invoice = await createInvoice(app.request, tenant.keys.sk_test);
    // The invoice's row lock, held here, lines everyone up: each request renders, then waits for it
    // to record; the job comes last. Released, the first request records and the rest find it done.
    const holder = await app.ownerDb.transaction();
    try {
      await holder('invoices').where({ id: invoice.id }).forUpdate().first();
      const types = ['converted', 'pdf'];
      const requests = Array.from({ length: 10 }, (_, i) =>
        get(`/api/v1/invoices/${invoice.id}/download/${types[i % 2]}`),
      );
      await waitForLockWaiters(10);
      const job = generateInvoiceDocumentsJob({ tenantId: tenant.tenantId, invoiceId: invoice.id }, app.deps);
      await waitForLockWaiters(11);
      await holder.commit();

      const answers = await Promise.all(
        requests.map(async (r) => ({ status: (await r).status, body: await readJson(await r) })),
      );
      t.deepEqual(
        answers.map((a) => a.status),
        Array(10).fill(200),
        JSON.stringify(answers.find((a) => a.status !== 200)),
      );
      t.is(((await job) as GeneratedDocuments).documents_status, 'skipped');

      const stored = await listInvoiceDocuments(app.ownerDb, invoice.id);
      t.deepEqual(stored.map((d) => d.kind).sort(), ['cii', 'facturx']);
      t.deepEqual(await auditActions(invoice.id), ['invoice.created', 'invoice.documents_generated']);
      const entry = await app
        .ownerDb('audit_entries')
        .where({ entity_id: invoice.id, action: 'invoice.documents_generated' })
        .first();
      t.deepEqual(
        entry.details.files.map((f: { sha256: string }) => f.sha256).sort(),
        stored.map((d) => d.sha256).sort(),
        'the entry names the files kept',
      );
      // Every link serves the one stored Factur-X (type pdf falls back to it).
      for (const { body } of answers) {
        const served = Buffer.from(await (await app.request(new URL(body.url).pathname)).arrayBuffer());
        t.is(served.length, stored.find((d) => d.kind === 'facturx')!.byte_size);
      }
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }
  },
);

test.serial('a failed generation still answers 409 with its reason: no rendering on download', async (t) => {
  const invoice = await createInvoice(app.request, tenant.keys.sk_test);
  await app
    .ownerDb('invoices')
    .where({ id: invoice.id })
    .update({ documents_status: 'failed', documents_error: 'font not found' });
  const body = await expectRefusal(
    t,
    await get(`/api/v1/invoices/${invoice.id}/download/pdf`),
    409,
    'DOCUMENT_GENERATION_FAILED',
  );
  t.regex(body.message, /font not found/);
  t.deepEqual(await listInvoiceDocuments(app.ownerDb, invoice.id), []);
  t.deepEqual(await auditActions(invoice.id), ['invoice.created']);

  const note = await createCreditNote(
    app.request,
    tenant.keys.sk_test,
    await createInvoice(app.request, tenant.keys.sk_test),
  );
  await app
    .ownerDb('credit_notes')
    .where({ id: note.id })
    .update({ documents_status: 'failed', documents_error: 'font not found' });
  const refused = await expectRefusal(
    t,
    await get(`/api/v1/credit-notes/${note.id}/download`),
    409,
    'DOCUMENT_GENERATION_FAILED',
  );
  t.regex(refused.message, /font not found/);
});

test.serial(
  'a rendering that fails in the request is recorded as the worker records it: failed, the reason, 409',
  async (t) => {
    const invoice = await createInvoice(app.request, tenant.keys.sk_test);
    // A JSON null for an address, which rendering trips on: what a rendering bug would look like. (The fiscal
    // fields' trigger is set aside for this one write, in the owner's transaction.)
    await app.ownerDb.transaction(async (tx) => {
      await tx.raw('alter table invoices disable trigger user');
      await tx.raw("update invoices set buyer_address = 'null'::jsonb where id = ?", [invoice.id]);
      await tx.raw('alter table invoices enable trigger user');
    });
    const body = await expectRefusal(
      t,
      await get(`/api/v1/invoices/${invoice.id}/download/converted`),
      409,
      'DOCUMENT_GENERATION_FAILED',
    );
    const row = await app.ownerDb('invoices').where({ id: invoice.id }).first();
    t.is(row.documents_status, 'failed');
    t.truthy(row.documents_error);
    t.true(body.message.includes(row.documents_error), body.message);
    t.deepEqual(await listInvoiceDocuments(app.ownerDb, invoice.id), []);
    t.deepEqual(await auditActions(invoice.id), ['invoice.created']);
    // The worker's job retries (a failure is its business), and records the same reason.
    const job = (await generateInvoiceDocumentsJob(
      { tenantId: tenant.tenantId, invoiceId: invoice.id },
      app.deps,
    )) as GeneratedDocuments;
    t.is(job.documents_status, 'failed');
    t.is((await app.ownerDb('invoices').where({ id: invoice.id }).first()).documents_error, row.documents_error);
  },
);

/** The queued (not yet started) jobs of a queue that name this id in their payload, highest priority first. */
async function queuedJobs(queue: string, field: string, id: string): Promise<{ id: string; priority: number }[]> {
  const { rows } = await app.ownerDb.raw(
    `select id, priority from ${BOSS_SCHEMA}.job where name = ? and state = 'created' and data->>? = ? order by priority desc`,
    [queue, field, id],
  );
  return rows;
}

test.serial(
  'more lines than a request renders: 409 DOCUMENT_NOT_READY with Retry-After, the job moved to the front of the queue once a minute',
  async (t) => {
    // Other invoices' documents queued first: the backlog a long invoice would otherwise wait behind.
    for (let i = 0; i < 3; i++) await createInvoice(app.request, tenant.keys.sk_test);
    // The tenant route computes the totals of this long body.
    const { total_ht, total_tax, total_ttc, lines, ...base } = invoiceBody();
    const long = Array.from({ length: ON_DEMAND_MAX_LINES + 1 }, (_, i) => ({
      description: `Article ${i + 1}`,
      quantity: 1,
      unit_price: 10,
      tax_rate: 20,
    }));
    const res = await app.request(
      '/api/v1/tenant/invoices',
      postJson({ ...base, lines: long }, { 'X-Tenant-Key': tenant.keys.sk_test }),
    );
    const created = await readJson(res);
    t.is(res.status, 201, JSON.stringify(created));
    const id = created.data.id;
    const queue = 'generate-invoice-documents';
    t.is((await queuedJobs(queue, 'invoiceId', id)).length, 1, 'the job queued at creation');

    const pending = await get(`/api/v1/invoices/${id}/download/pdf`);
    t.is(pending.headers.get('retry-after'), '2');
    await expectRefusal(t, pending, 409, 'DOCUMENT_NOT_READY');
    t.deepEqual(await listInvoiceDocuments(app.ownerDb, id), []);
    // Asked again within the minute: still one job ahead of the queue, not one per request.
    await expectRefusal(t, await get(`/api/v1/invoices/${id}/download/converted`), 409, 'DOCUMENT_NOT_READY');
    const queued = await queuedJobs(queue, 'invoiceId', id);
    t.is(queued.length, 2, 'the creation job and one job ahead of the queue');
    t.true(queued[0].priority > 0, `priority ${queued[0].priority}`);

    // The worker's next fetch is that job, ahead of the invoices queued before.
    const [next] = await app.deps.boss.fetch<{ invoiceId: string; tenantId: string }>(queue, { batchSize: 1 });
    t.is(next?.data.invoiceId, id);
    const job = (await generateInvoiceDocumentsJob(next.data, app.deps)) as GeneratedDocuments;
    await app.deps.boss.complete(queue, next.id);
    t.is(job.documents_status, 'ready');
    await download(t, `/api/v1/invoices/${id}/download/pdf`);
    const skipped = (await generateInvoiceDocumentsJob(
      { tenantId: tenant.tenantId, invoiceId: id },
      app.deps,
    )) as GeneratedDocuments;
    t.is(skipped.documents_status, 'skipped', 'the creation job finds the files made');

    // A credit note of every line is as long: the same.
    const note = await createCreditNote(app.request, tenant.keys.sk_test, created.data);
    t.is(note.documents_status, 'pending');
    const noteQueue = 'generate-credit-note-documents';
    const refused = await get(`/api/v1/credit-notes/${note.id}/download`);
    t.is(refused.headers.get('retry-after'), '2');
    await expectRefusal(t, refused, 409, 'DOCUMENT_NOT_READY');
    await expectRefusal(t, await get(`/api/v1/credit-notes/${note.id}/download?type=cii`), 409, 'DOCUMENT_NOT_READY');
    const noteJobs = await queuedJobs(noteQueue, 'creditNoteId', note.id);
    t.is(noteJobs.length, 2);
    t.true(noteJobs[0].priority > 0);
    const [noteJob] = await app.deps.boss.fetch<{ creditNoteId: string; tenantId: string }>(noteQueue, {
      batchSize: 1,
    });
    t.is(noteJob?.data.creditNoteId, note.id);
    await generateCreditNoteDocumentsJob(noteJob.data, app.deps);
    await app.deps.boss.complete(noteQueue, noteJob.id);
    await downloadFile(t, `/api/v1/credit-notes/${note.id}/download`, 'application/pdf');
  },
);
