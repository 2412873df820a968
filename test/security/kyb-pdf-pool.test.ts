import test from 'ava';
import { pdfProblem } from '../../domain/tenants/kyb-pdf-check.js';
import { KYB_PDF_BUDGET, KybPdfPool } from '../../domain/tenants/kyb-pdf-pool.js';
import { minimalPdf } from '../helpers/minimal-pdf.js';

/**
 * KYB PDFs are read in a worker pool of their own, under a time budget and a queue bound: a file
 * crafted to be slow costs its thread the budget and is refused; a full pool turns files away
 * (503 upstream) rather than queue them without end.
 */

/** A valid PDF padded with `count` small objects: slow to read, within 10 MB. */
function paddedPdf(count: number): Buffer {
  const pdf = minimalPdf().toString('latin1');
  const at = pdf.indexOf('xref');
  const padding = Array.from({ length: count }, (_, i) => `${1000 + i} 0 obj\n<< /P ${i} >>\nendobj\n`).join('');
  return Buffer.from(`${pdf.slice(0, at)}${padding}${pdf.slice(at)}`, 'latin1');
}

test('a PDF slower to read than the budget is refused; the next one is read', async (t) => {
  const pool = new KybPdfPool({ ...KYB_PDF_BUDGET, threads: 1, wallMs: 40 });
  const slow = paddedPdf(200_000);
  t.true(slow.length < 10 * 1024 * 1024);
  t.like(await pool.check(slow), { ok: false, error: 'it takes longer than 40 ms to read' });
  t.deepEqual(await new KybPdfPool({ ...KYB_PDF_BUDGET, threads: 1 }).check(minimalPdf()), { ok: true });
  await pool.close();
});

test('a full pool answers busy instead of queueing', async (t) => {
  const pool = new KybPdfPool({ ...KYB_PDF_BUDGET, threads: 1, maxQueue: 1, wallMs: 10_000 });
  const slow = paddedPdf(200_000);
  const running = pool.check(slow);
  const queued = pool.check(minimalPdf());
  t.like(await pool.check(minimalPdf()), { ok: false, busy: true });
  t.like(await running, { ok: true });
  t.like(await queued, { ok: true });
  await pool.close();
});

test('what the reader refuses, in words', (t) => {
  t.is(pdfProblem(minimalPdf()), null);
  t.is(pdfProblem(Buffer.from('GIF89a')), 'no %PDF- header');
  t.regex(pdfProblem(minimalPdf().subarray(0, 400)) ?? '', /truncated/);
  const noCatalog = minimalPdf().toString('latin1').replace('/Type /Catalog', '/Type /Other');
  t.is(pdfProblem(Buffer.from(noCatalog, 'latin1')), 'it has no catalog');
});
