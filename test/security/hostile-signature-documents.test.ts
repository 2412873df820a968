import test from 'ava';
import { AppError } from '../../domain/shared/app-error.js';
import { createLogger } from '../../domain/shared/logger.js';
import { PDF_INFO_BUDGET, PdfInfoPool } from '../../domain/signatures/pdf/index.js';
import { prepareSignature } from '../../domain/signatures/signature-checks.js';
import { expectInvalid } from '../helpers/assertions.js';
import { postJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
let tenant: SeededTenant;

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
});
test.after.always(() => app?.close());

/**
 * A valid one-page PDF padded to `bytes` with objects of eight nested empty arrays: cheap to send,
 * slow to read (every object and every array is parsed, each a few microseconds).
 */
function nestedArraysPdf(bytes: number): Buffer {
  const head =
    '%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n' +
    '2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
    '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\n';
  const parts = [head];
  let size = head.length;
  let n = 4;
  for (; size < bytes; n++) {
    const object = `${n} 0 obj\n[[[[[[[[]]]]]]]]\nendobj\n`;
    parts.push(object);
    size += object.length;
  }
  parts.push(`trailer\n<< /Size ${n} /Root 1 0 R >>\nstartxref\n0\n%%EOF\n`);
  return Buffer.from(parts.join(''), 'latin1');
}

const signatureBody = (pdf: Buffer) => ({
  title: 'Contrat',
  document: pdf.toString('base64'),
  document_name: 'contrat.pdf',
  signers: [{ first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', auth_method: 'email' }],
});

const requestCount = async () => {
  const [{ n }] = await app.ownerDb('signature_requests').where({ tenant_id: tenant.tenantId }).count({ n: '*' });
  return Number(n);
};

test.serial(
  'a 19 MB PDF of 600,000 objects of nested arrays is refused over its reading budget, and /api/health answers meanwhile',
  async (t) => {
    // Seconds of reading, and more than 512 MB of heap: over the pool's budget.
    const pdf = nestedArraysPdf(19_000_000);
    const before = await requestCount();
    const started = performance.now();
    const refused = app
      .request('/api/v1/sandbox/signatures', {
        ...postJson(signatureBody(pdf), { 'X-API-Key': tenant.keys.sk_test }),
        signal: AbortSignal.timeout(20_000),
      })
      .then(async (res) => ({ res, ms: performance.now() - started }));
    // Past the body's parsing (on the event loop, like any request), while the PDF is read.
    await new Promise((resolve) => setTimeout(resolve, 600));
    const health = [];
    for (let i = 0; i < 5; i++) {
      const asked = performance.now();
      const res = await app.request('/api/health', { signal: AbortSignal.timeout(5000) });
      health.push({ status: res.status, ms: Math.round(performance.now() - asked) });
      await res.arrayBuffer();
    }
    const { res, ms } = await refused;
    const json = await expectInvalid(t, res, 'document');
    // Over the 2 s budget, or over the thread's heap first on a faster machine: refused either way.
    t.regex(
      json.errors.document[0],
      /^must be a readable PDF: the PDF (takes longer than 2000 ms|needs more than 512 MB of memory) to read$/,
    );
    t.log(`${(pdf.length / 1e6).toFixed(1)} MB refused in ${Math.round(ms)} ms; health ${JSON.stringify(health)}`);
    t.true(
      health.every((h) => h.status === 200 && h.ms < 1000),
      JSON.stringify(health),
    );
    t.is(await requestCount(), before);
  },
);

test('the PDF pool stops a document over its time budget, then reads the next one', async (t) => {
  const pool = new PdfInfoPool({ ...PDF_INFO_BUDGET, threads: 1, wallMs: 150 });
  const started = performance.now();
  const outcome = await pool.read(nestedArraysPdf(4_000_000));
  t.like(outcome, { ok: false, error: 'the PDF takes longer than 150 ms to read' });
  t.true(performance.now() - started < 1000);
  // The terminated thread is replaced.
  const fine = await pool.read(minimalPdf([{ width: 842, height: 595 }]));
  t.deepEqual(fine, { ok: true, info: { pages: [{ width: 842, height: 595 }] } });
  const junk = await pool.read(Buffer.from('not a PDF at all'));
  t.false(junk.ok);
  t.regex((junk as { error: string }).error, /not a PDF/);
  await pool.close();
});

test('a document over the reading budget is a 422 naming the document, with the reason', async (t) => {
  const pool = new PdfInfoPool({ ...PDF_INFO_BUDGET, threads: 1, wallMs: 100 });
  const err = await t.throwsAsync(
    prepareSignature(
      signatureBody(nestedArraysPdf(4_000_000)) as never,
      app.deps,
      createLogger('silent', 'test'),
      pool,
    ),
  );
  t.true(err instanceof AppError);
  t.is((err as AppError).status, 422);
  t.deepEqual((err as AppError).extra.fields, {
    document: ['must be a readable PDF: the PDF takes longer than 100 ms to read'],
  });
  await pool.close();
});

test('the PDF pool’s queue is bounded by bytes: many small documents wait, a large one beyond the bound is busy', async (t) => {
  const small = minimalPdf();
  const pool = new PdfInfoPool({
    ...PDF_INFO_BUDGET,
    threads: 1,
    maxQueue: 100,
    maxQueueBytes: 20 * small.length,
    wallMs: 10_000,
  });
  const slow = pool.read(nestedArraysPdf(2_000_000));
  const waiting = Array.from({ length: 20 }, () => pool.read(small));
  t.like(await pool.read(Buffer.concat([small, Buffer.alloc(1)])), { ok: false, busy: true });
  for (const outcome of await Promise.all(waiting)) t.like(outcome, { ok: true });
  t.like(await slow, { ok: true });
  await pool.close();
});

test('a creation while the PDF pool is full answers 503, retryable, without reading the document', async (t) => {
  const pool = new PdfInfoPool({ ...PDF_INFO_BUDGET, threads: 1, maxQueue: 0, wallMs: 10_000 });
  const slow = pool.read(nestedArraysPdf(2_000_000));
  const err = await t.throwsAsync(
    prepareSignature(signatureBody(minimalPdf()) as never, app.deps, createLogger('silent', 'test'), pool),
  );
  t.true(err instanceof AppError);
  t.is((err as AppError).code, 'SERVICE_UNAVAILABLE');
  t.like(await slow, { ok: true });
  await pool.close();
});
