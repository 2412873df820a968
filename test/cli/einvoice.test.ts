import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import type { Knex } from 'knex';
import { addMonths, parisMonth } from '../../domain/billing/billing-period.js';
import { createDatabase } from '../../domain/shared/database.js';
import { hashApiKey } from '../../domain/tenants/api-key.js';
import { verifyPassword } from '../../domain/users/password.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.js';

const runFile = promisify(execFile);
const BIN = path.resolve('bin/einvoice.js');

let database: TestDatabase;
let db: Knex;
test.before(async () => {
  database = await createTestDatabase();
  db = createDatabase(database.url, { poolMax: 2 });
});
test.after.always(async () => {
  await db?.destroy();
  await database?.drop();
});

interface CliResult {
  code: number;
  // biome-ignore lint/suspicious/noExplicitAny: CLI JSON is asserted field by field
  json: any;
  stderr: string;
}

const APP_KEY = `base64:${Buffer.alloc(32, 9).toString('base64')}`;

async function einvoice(...args: string[]): Promise<CliResult> {
  const env = { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, LOG_LEVEL: 'silent', APP_KEY };
  try {
    const { stdout, stderr } = await runFile(process.execPath, [BIN, ...args], { env });
    return { code: 0, json: JSON.parse(stdout), stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    const text = e.stderr.slice(0, e.stderr.indexOf('\n}\n') + 2) || '{}';
    return { code: e.code, json: JSON.parse(text.trim().startsWith('{') ? text : '{}'), stderr: e.stderr };
  }
}

test('tenant create prints the tenant id and four keys of the specified formats, stored only as hashes', async (t) => {
  const { code, json } = await einvoice(
    'tenant',
    'create',
    '--name',
    'Acme Platform',
    '--email',
    'ops@acme.test',
    '--siret',
    '73282932000074',
    '--partner',
    '--kyb',
    'verified',
  );
  t.is(code, 0);
  t.deepEqual(Object.keys(json).sort(), ['publishable_keys', 'secret_keys', 'tenant_id']);
  t.regex(json.secret_keys.sandbox, /^sk_test_[a-zA-Z0-9]{32}$/);
  t.regex(json.secret_keys.production, /^sk_live_[a-zA-Z0-9]{32}$/);
  t.regex(json.publishable_keys.sandbox, /^pk_test_[a-zA-Z0-9]{32}$/);
  t.regex(json.publishable_keys.production, /^pk_live_[a-zA-Z0-9]{32}$/);

  const tenant = await db('tenants').where({ id: json.tenant_id }).first();
  t.like(tenant, { kind: 'platform', is_partner: true, kyb_status: 'verified', siret: '73282932000074' });
  const keys = await db('api_keys').where({ tenant_id: json.tenant_id });
  t.is(keys.length, 4);
  const all = [...Object.values(json.secret_keys), ...Object.values(json.publishable_keys)] as string[];
  for (const key of all) {
    const row = keys.find((k) => k.key_hash === hashApiKey(key));
    t.truthy(row, 'looked up by its SHA-256');
    t.is(row.key_prefix, key.slice(0, 12));
    t.false(JSON.stringify(row).includes(key), 'the raw key is stored nowhere');
  }
  const balance = await db('balances').where({ tenant_id: json.tenant_id }).first();
  t.is(balance.amount, '0.00');
});

test('tenant create refuses a bad SIRET and a duplicate e-mail with JSON errors', async (t) => {
  const bad = await einvoice(
    'tenant',
    'create',
    '--name',
    'X',
    '--email',
    'x@example.com',
    '--siret',
    '12345678901234',
  );
  t.is(bad.code, 1);
  t.deepEqual(bad.json.error.errors, { siret: ['must be a valid SIRET (14 digits, Luhn check)'] });

  const args = ['tenant', 'create', '--name', 'Dup', '--email', 'dup@example.com', '--siret', '73282932000074'];
  t.is((await einvoice(...args)).code, 0);
  const dup = await einvoice(...args);
  t.is(dup.code, 1);
  t.is(dup.json.error.code, 'CONFLICT');
  t.is(Number((await db('tenants').whereRaw('lower(email) = ?', ['dup@example.com']).count({ n: '*' }))[0].n), 1);
});

test('balance credit adds to a tenant balance and records the transaction', async (t) => {
  const { json: tenant } = await einvoice(
    'tenant',
    'create',
    '--name',
    'Bal',
    '--email',
    'bal@example.com',
    '--siret',
    '73282932000074',
  );
  const first = await einvoice(
    'balance',
    'credit',
    '--tenant',
    tenant.tenant_id,
    '--amount',
    '25.50',
    '--reason',
    'welcome credit',
  );
  t.is(first.code, 0);
  t.like(first.json, { tenant_id: tenant.tenant_id, amount: 25.5, balance: 25.5, currency: 'EUR' });
  const second = await einvoice(
    'balance',
    'credit',
    '--tenant',
    tenant.tenant_id,
    '--amount',
    '0.10',
    '--reason',
    'again',
  );
  t.is(second.json.balance, 25.6);
  const rows = await db('balance_transactions').where({ tenant_id: tenant.tenant_id }).orderBy('created_at');
  t.deepEqual(
    rows.map((r) => [r.type, r.amount, r.balance_after, r.reason]),
    [
      ['balance_credit', '25.50', '25.50', 'welcome credit'],
      ['balance_credit', '0.10', '25.60', 'again'],
    ],
  );
  const tooPrecise = await einvoice(
    'balance',
    'credit',
    '--tenant',
    tenant.tenant_id,
    '--amount',
    '1.005',
    '--reason',
    'x',
  );
  t.is(tooPrecise.code, 1);
  t.deepEqual(tooPrecise.json.error.errors, { amount: ['must have at most 2 decimals'] });
  const unknown = await einvoice(
    'balance',
    'credit',
    '--tenant',
    '00000000-0000-4000-8000-000000000000',
    '--amount',
    '1',
    '--reason',
    'x',
  );
  t.is(unknown.json.error.code, 'NOT_FOUND');
});

test('balance debit takes from the balance in the same ledger, never below zero', async (t) => {
  const { json: tenant } = await einvoice(
    'tenant',
    'create',
    '--name',
    'Debited',
    '--email',
    'debited@example.com',
    '--siret',
    '73282932000074',
  );
  await einvoice('balance', 'credit', '--tenant', tenant.tenant_id, '--amount', '10', '--reason', 'opening');
  const debit = await einvoice('balance', 'debit', '--tenant', tenant.tenant_id, '--amount', '3.25', '--reason', 'fix');
  t.is(debit.code, 0, debit.stderr);
  t.like(debit.json, { tenant_id: tenant.tenant_id, amount: -3.25, balance: 6.75, currency: 'EUR' });
  const tooMuch = await einvoice('balance', 'debit', '--tenant', tenant.tenant_id, '--amount', '6.76', '--reason', 'x');
  t.is(tooMuch.code, 1);
  t.like(tooMuch.json.error, { code: 'INSUFFICIENT_BALANCE', required: 6.76, balance: 6.75 });
  const rows = await db('balance_transactions').where({ tenant_id: tenant.tenant_id }).orderBy('created_at');
  t.deepEqual(
    rows.map((r) => [r.type, r.amount, r.balance_after, r.reason, r.actor]),
    [
      ['balance_credit', '10.00', '10.00', 'opening', 'operator'],
      ['balance_debit', '-3.25', '6.75', 'fix', 'operator'],
    ],
  );
  const both = await einvoice('balance', 'debit', '--amount', '1', '--reason', 'x');
  t.deepEqual(both.json.error.errors, { tenant_id: ['give exactly one of tenant_id and user_id'] });
});

test('admin create makes a user with admin access and a scrypt password; balance credit works by user', async (t) => {
  const { code, json } = await einvoice(
    'admin',
    'create',
    '--email',
    'root@example.com',
    '--password',
    'correct horse battery',
  );
  t.is(code, 0);
  t.like(json, { email: 'root@example.com', role: 'admin', permissions: ['admin access'] });
  const user = await db('users').where({ id: json.user_id }).first();
  t.regex(user.password_hash, /^scrypt\$/);
  t.true(await verifyPassword('correct horse battery', user.password_hash));
  t.false(await verifyPassword('wrong', user.password_hash));

  const credit = await einvoice('balance', 'credit', '--user', json.user_id, '--amount', '10', '--reason', 'test');
  t.like(credit.json, { tenant_id: json.tenant_id, balance: 10 });

  const weak = await einvoice('admin', 'create', '--email', 'other@example.com', '--password', 'short');
  t.is(weak.code, 1);
  t.deepEqual(weak.json.error.errors, { password: ['must NOT have fewer than 12 characters'] });
});

test('billing run queues one billing job per tenant with usage in the month that ended, once', async (t) => {
  const { json: tenant } = await einvoice(
    'tenant',
    'create',
    '--name',
    'Billed',
    '--email',
    'billed@example.com',
    '--siret',
    '73282932000074',
  );
  const month = addMonths(parisMonth(new Date()), -1);
  await db.raw(
    `insert into balance_transactions (tenant_id, type, amount, balance_after, reference_type, reference_id, created_at)
     values (?, 'invoice_created', -0.04, 0, 'invoice', gen_random_uuid(), (?::date + 10)::timestamp at time zone 'Europe/Paris')`,
    [tenant.tenant_id, `${month}-01`],
  );
  const first = await einvoice('billing', 'run', '--tenant', tenant.tenant_id);
  t.is(first.code, 0, first.stderr);
  t.deepEqual(first.json, { month, tenants: 1, queued: 1 });
  const jobs = await db.raw("select data from pgboss.job where name = 'bill-tenant-month'");
  t.deepEqual(
    jobs.rows.map((r: { data: unknown }) => r.data),
    [{ tenantId: tenant.tenant_id, month }],
  );
  // The job is still queued: running the month again queues nothing more.
  const again = await einvoice('billing', 'run', '--month', month);
  t.deepEqual(again.json, { month, tenants: 1, queued: 0 });
  const future = await einvoice('billing', 'run', '--month', parisMonth(new Date()));
  t.is(future.code, 1);
  t.is(future.json.error.code, 'VALIDATION_ERROR');
  t.truthy(future.json.error.errors.month);
});

test('usage errors exit 2 with the command usage', async (t) => {
  const unknown = await einvoice('tenant', 'explode');
  t.is(unknown.code, 2);
  const badFlag = await einvoice('tenant', 'create', '--nme', 'x');
  t.is(badFlag.code, 2);
  t.regex(badFlag.stderr, /usage: einvoice tenant create/);
});

test('provider connect stores a SuperPDP client with its secret sealed; connecting again replaces it', async (t) => {
  const { json: tenant } = await einvoice(
    'tenant',
    'create',
    '--name',
    'Pdp',
    '--email',
    'pdp@example.com',
    '--siret',
    '73282932000074',
  );
  const first = await einvoice(
    'provider',
    'connect',
    '--tenant',
    tenant.tenant_id,
    '--client-id',
    'client_1',
    '--client-secret',
    'very-secret-1',
  );
  t.is(first.code, 0, first.stderr);
  t.like(first.json, {
    tenant_id: tenant.tenant_id,
    environment: 'production',
    provider: 'superpdp',
    status: 'active',
    client_id: 'client_1',
  });
  t.false(JSON.stringify(first.json).includes('very-secret'), 'the secret is never printed');
  const again = await einvoice(
    'provider',
    'connect',
    '--tenant',
    tenant.tenant_id,
    '--client-id',
    'client_2',
    '--client-secret',
    'very-secret-2',
  );
  t.is(again.json.id, first.json.id, 'one connection per owner and environment');
  const rows = await db('provider_connections').where({ tenant_id: tenant.tenant_id });
  t.is(rows.length, 1);
  t.is(rows[0].client_id, 'client_2');
  t.false(JSON.stringify(rows[0]).includes('very-secret'), 'sealed at rest');
  const unknown = await einvoice(
    'provider',
    'connect',
    '--tenant',
    '6a1f3e0c-2b4d-4c8e-9f1a-3d5b7c9e1f20',
    '--client-id',
    'c',
    '--client-secret',
    's',
  );
  t.is(unknown.code, 1);
  t.is(unknown.json.error.code, 'NOT_FOUND');
});
