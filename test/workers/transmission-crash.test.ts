import type { ChildProcess } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { connectProvider } from '../../domain/transmission/operations/connect-provider.js';
import { generateInvoiceDocumentsJob } from '../../workers/handlers/generate-invoice-documents.js';
import { postJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { createInvoice } from '../helpers/invoices.js';
import { startProcess, stopProcess, WORKER_MAIN, waitFor } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * A fake SuperPDP on 127.0.0.1 that stores an upload when its body has arrived and then holds the
 * answer forever; the worker is killed (SIGKILL) during that upload. A new worker takes the job
 * over once its heartbeat is missed, finds the upload by `external_id`, and never uploads again.
 */
interface Stored {
  id: number;
  external_id: string;
}
const stored: Stored[] = [];
const held: ServerResponse[] = [];
let uploads = 0;
const fake = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/oauth2/token')
      return json(200, { access_token: 'at', expires_in: 1800 });
    if (req.method === 'POST' && url.pathname === '/v1.beta/invoices') {
      uploads++;
      stored.push({ id: 5000 + uploads, external_id: url.searchParams.get('external_id') ?? '' });
      held.push(res); // the provider has it; the answer never comes
      return;
    }
    if (req.method === 'GET' && url.pathname === '/v1.beta/invoices') {
      const data = [...stored]
        .reverse()
        .map((s) => ({ ...s, company_id: 1, direction: 'out', created_at: '2026-11-20T10:00:00Z' }));
      return json(200, { data, count: data.length, has_after: false, has_before: false });
    }
    if (req.method === 'GET' && url.pathname === '/v1.beta/invoice_events')
      return json(200, { data: [], has_after: false });
    json(404, { message: 'not found' });
  });
});

let app: TestApp;
let base: string;
const workers: ChildProcess[] = [];
test.before(async () => {
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0', SUPERPDP_BASE_URL: base } });
});
test.after.always(async () => {
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) await stopProcess(w);
  for (const res of held) res.destroy();
  fake.closeAllConnections();
  await new Promise<void>((resolve) => fake.close(() => resolve()));
  await app?.close();
});

const startWorker = async () => {
  const { child } = await startProcess(
    WORKER_MAIN,
    {
      DATABASE_URL: app.database.url,
      APP_KEY: app.deps.config.appKey!.toString('hex'),
      SUPERPDP_BASE_URL: base,
      SUPERPDP_TIMEOUT_MS: '60000',
      WORKER_SUPERVISE_SECONDS: '2',
    },
    'ready',
  );
  workers.push(child);
  return child;
};

test('a worker killed during the upload: after a restart, exactly one upload reached the provider', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb);
  await app.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '10.00' });
  await execute(
    connectProvider,
    { tenant_id: tenant.tenantId, client_id: 'c', client_secret: 's' },
    systemCaller(),
    app.deps,
  );
  const invoice = await createInvoice(app.request, tenant.keys.sk_live);
  await generateInvoiceDocumentsJob({ tenantId: tenant.tenantId, invoiceId: invoice.id }, app.deps);
  const submit = await app.request(
    `/api/v1/invoices/${invoice.id}/submit`,
    postJson({}, { 'X-API-Key': tenant.keys.sk_live }),
  );
  t.is(submit.status, 200);

  const first = await startWorker();
  await waitFor(async () => uploads === 1, 30_000);
  first.kill('SIGKILL');
  await new Promise((resolve) => first.once('exit', resolve));
  t.is(
    (await app.ownerDb('invoices').where({ id: invoice.id }).first()).pdp_id,
    null,
    'the outcome was never recorded',
  );

  const restartedAt = Date.now();
  await startWorker();
  const recorded = await waitFor(async () => {
    const row = await app.ownerDb('invoices').where({ id: invoice.id }).first();
    return row.pdp_id && row;
  }, 120_000);
  t.log(`recovered ${Math.round((Date.now() - restartedAt) / 1000)} s after the restart`);
  t.is(recorded.pdp_id, '5001', 'recovered from the provider by external_id');
  t.is(recorded.status, 'submitted');
  await new Promise((resolve) => setTimeout(resolve, 2000));
  t.is(uploads, 1, 'exactly one upload reached the provider');
  t.deepEqual(stored, [{ id: 5001, external_id: invoice.id }]);
});
