import test from 'ava';
import { readJson } from '../helpers/http.js';
import { seedUser } from '../helpers/identities.js';
import { startProcess, stopProcess, WORKER_MAIN, waitFor } from '../helpers/processes.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

test('a worker process works the KYC job through pg-boss and records the outcome', async (t) => {
  const user = await seedUser(app.ownerDb);
  const headers = { Authorization: `Bearer ${user.token}`, 'Content-Type': 'application/json' };
  const create = await app.request('/api/v1/companies', {
    method: 'POST',
    headers,
    body: JSON.stringify({
      name: 'Worked SAS',
      siret: '73282932000074',
      address_line1: '1 rue de la Paix',
      postal_code: '75002',
      city: 'Paris',
    }),
  });
  const company = (await readJson(create)).data;
  t.is((await app.request(`/api/v1/companies/${company.id}/kyc`, { method: 'POST', headers })).status, 202);

  const { child } = await startProcess(
    WORKER_MAIN,
    { DATABASE_URL: app.database.url, APP_KEY: app.deps.config.appKey!.toString('hex') },
    'ready',
  );
  try {
    const status = await waitFor(async () => {
      const res = await app.request(`/api/v1/companies/${company.id}/kyc/status`, { headers });
      const body = await readJson(res);
      return body.data.status === 'completed' && body.data;
    });
    t.truthy(status.completed_at);
    const job = await waitFor(async () => {
      const { rows } = await app.ownerDb.raw(
        "select state from pgboss.job where name = 'verify-company-kyc' and data->>'companyId' = ?",
        [company.id],
      );
      return rows[0]?.state === 'completed' && rows;
    });
    t.is(job.length, 1);
  } finally {
    t.is(await stopProcess(child), 0);
  }
});
