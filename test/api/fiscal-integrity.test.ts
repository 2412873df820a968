import test from 'ava';
import type { Knex } from 'knex';
import { checkIntegrity } from '../../domain/ledger/integrity-check.js';
import { insertApiKey } from '../../domain/tenants/api-key-store.js';
import { expectRefusal } from '../helpers/assertions.js';
import { postJson, readJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';

let app: TestApp;
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => app?.close());

/** A tenant with `count` sandbox invoices, hence a chain 1..count. */
async function tenantWithChain(count: number): Promise<SeededTenant> {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  for (let i = 0; i < count; i++) {
    const res = await app.request('/api/v1/invoices', postJson(invoiceBody(), { 'X-API-Key': tenant.keys.sk_test }));
    if (res.status !== 201) throw new Error(`seed: ${res.status}`);
  }
  return tenant;
}

const integrity = async (tenant: SeededTenant, suffix = '') => {
  const res = await app.request(`/api/v1/tenant/fiscal/integrity${suffix}`, {
    headers: { 'X-Tenant-Key': tenant.keys.sk_test },
  });
  return { status: res.status, body: await readJson(res) };
};

test.serial('an intact chain verifies, and each check is recorded', async (t) => {
  const tenant = await tenantWithChain(5);
  const { status, body } = await integrity(tenant);
  t.is(status, 200, JSON.stringify(body));
  t.like(body, { valid: true, chains_checked: 1, entries_checked: 5, first_entry: 1, last_entry: 5, broken_links: [] });
  const today = new Date().toISOString().slice(0, 10);
  t.like((await integrity(tenant, `/${today}`)).body, { valid: true, entries_checked: 5 });
  t.like((await integrity(tenant, '/2001-01-01')).body, { valid: true, entries_checked: 0 });
  const history = await integrity(tenant, '/history');
  t.is(history.body.meta.total, 3);
  t.like(history.body.data[0], { valid: true });
});

/**
 * Each tampering is done for real, as a database superuser could: the ledger's triggers, checks and
 * unique index are dropped inside a transaction, the rows changed, and the check run on that
 * transaction's view; the transaction is then rolled back.
 */
const CASES: { name: string; at: number; change: (db: Knex, tenant: SeededTenant) => Promise<unknown> }[] = [
  {
    name: 'a changed amount',
    at: 3,
    change: async (db, tenant) => {
      const row = await db('fiscal_entries').where({ tenant_id: tenant.tenantId, sequence_number: 3 }).first();
      const data = { ...row.data, total_ttc: '1.00' };
      await db('fiscal_entries')
        .where({ id: row.id })
        .update({ data, canonical_data: JSON.stringify(data) });
    },
  },
  {
    name: 'an amount changed in data only',
    at: 2,
    change: (db, tenant) =>
      db('fiscal_entries')
        .where({ tenant_id: tenant.tenantId, sequence_number: 2 })
        .update({ data: db.raw(`jsonb_set(data, '{total_ttc}', '"9.99"')`) }),
  },
  {
    name: 'a deleted entry',
    at: 4,
    change: (db, tenant) => db('fiscal_entries').where({ tenant_id: tenant.tenantId, sequence_number: 3 }).del(),
  },
  {
    name: 'two swapped entries',
    at: 2,
    change: async (db, tenant) => {
      const rows = await db('fiscal_entries').where({ tenant_id: tenant.tenantId }).whereIn('sequence_number', [2, 3]);
      await db('fiscal_entries').where({ id: rows[0].id }).update({ sequence_number: rows[1].sequence_number });
      await db('fiscal_entries').where({ id: rows[1].id }).update({ sequence_number: rows[0].sequence_number });
    },
  },
  {
    name: 'an inserted entry',
    at: 3,
    change: async (db, tenant) => {
      await db('fiscal_entries')
        .where({ tenant_id: tenant.tenantId })
        .andWhere('sequence_number', '>=', 3)
        .increment('sequence_number', 1);
      const model = await db('fiscal_entries').where({ tenant_id: tenant.tenantId, sequence_number: 2 }).first();
      const { id: _id, ...copy } = model;
      await db('fiscal_entries').insert({ ...copy, sequence_number: 3, entity_id: model.entity_id });
    },
  },
];

for (const c of CASES) {
  test.serial(`the check finds ${c.name} at sequence ${c.at}`, async (t) => {
    const tenant = await tenantWithChain(5);
    let seen: { valid: boolean; broken_links: { sequence_number: number }[] } | undefined;
    await t.throwsAsync(
      app.ownerDb.transaction(async (tx) => {
        await tx.raw('alter table fiscal_entries disable trigger user');
        for (const constraint of ['data_matches_canonical', 'data_hash_valid', 'chain_hash_valid']) {
          await tx.raw(`alter table fiscal_entries drop constraint fiscal_entries_${constraint}`);
        }
        await tx.raw('drop index fiscal_entries_chain_sequence_unique');
        await c.change(tx, tenant);
        // The API's own connection cannot see this uncommitted tampering; the check runs on it here.
        seen = await checkIntegrity(
          tx,
          { tenantId: tenant.tenantId, environment: 'sandbox', subTenantId: null, period: null },
          new Date(),
        );
        throw new Error('roll back the tampering');
      }),
      { message: 'roll back the tampering' },
    );
    t.false(seen?.valid);
    t.is(seen?.broken_links[0].sequence_number, c.at, JSON.stringify(seen?.broken_links));
    t.like((await integrity(tenant)).body, { valid: true }, 'the rollback restored the chain');
  });
}

test('fiscal routes need the fiscal:read scope, and another tenant sees only its own chains', async (t) => {
  const tenant = await tenantWithChain(1);
  const key = await insertApiKey(app.ownerDb, tenant.tenantId, {
    name: 'invoices only',
    kind: 'secret',
    environment: 'sandbox',
    scopes: ['invoices'],
  });
  const res = await app.request('/api/v1/tenant/fiscal/integrity', { headers: { 'X-Tenant-Key': key.key } });
  await expectRefusal(t, res, 403, 'FISCAL_SCOPE_DENIED');
  const other = await tenantWithChain(0);
  t.like((await integrity(other)).body, { valid: true, chains_checked: 0, entries_checked: 0 });
});

test.serial(
  '200 concurrent creations on one sub-tenant leave a chain 1..200 without gap, and it verifies',
  async (t) => {
    const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
    const headers = { 'X-Tenant-Key': tenant.keys.sk_test };
    const sub = (
      await readJson(
        await app.request(
          '/api/v1/tenant/sub-tenants',
          postJson({ external_id: 'busy', name: 'Busy client' }, headers),
        ),
      )
    ).data;
    const statuses = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const res = await app.request(
          `/api/v1/tenant/sub-tenants/${sub.id}/invoices`,
          postJson(invoiceBody(), headers),
        );
        return res.status;
      }),
    );
    t.deepEqual([...new Set(statuses)], [201]);
    const numbers = await app
      .ownerDb('fiscal_entries')
      .where({ sub_tenant_id: sub.id })
      .orderBy('sequence_number')
      .pluck('sequence_number');
    t.deepEqual(
      numbers.map(Number),
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    t.like((await integrity(tenant, `?sub_tenant_id=${sub.id}`)).body, {
      valid: true,
      entries_checked: 200,
      last_entry: 200,
    });
    t.is(
      Number((await app.ownerDb('fiscal_pending').count<{ n: number }[]>({ n: '*' }))[0].n),
      0,
      'nothing left pending',
    );
  },
);
