import test from 'ava';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { startProcess, stopProcess, WORKER_MAIN, waitFor } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

test('a worker process renders a new invoice’s files, and the download link serves them', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const headers = { 'X-API-Key': tenant.keys.sk_test };
  const created = await readJson(
    await app.request('/api/v1/sandbox/invoices', postJson(invoiceBody({ output_format: 'ubl' }), headers)),
  );
  const id = created.data.id;
  // Not downloaded before the worker runs: a download would render the files itself.
  t.is(created.data.documents_status, 'pending');

  const { child } = await startProcess(
    WORKER_MAIN,
    { DATABASE_URL: app.database.url, APP_KEY: app.deps.config.appKey!.toString('hex') },
    'ready',
  );
  try {
    const invoice = await waitFor(async () => {
      const row = await app.ownerDb('invoices').where({ id }).first();
      return row.documents_status === 'ready' ? row : null;
    });
    t.is(invoice.documents_status, 'ready');
    const kinds = (await app.ownerDb('invoice_documents').where({ invoice_id: id }).pluck('kind')).sort();
    t.deepEqual(kinds, ['pdf', 'ubl']);
    const link = await app.request(`/api/v1/sandbox/invoices/${id}/download/xml`, { headers });
    t.is(link.status, 200);
    const file = await app.request(new URL((await readJson(link)).url).pathname);
    t.is(file.status, 200);
    t.regex(await file.text(), /<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/);
  } finally {
    t.is(await stopProcess(child), 0);
  }
});
