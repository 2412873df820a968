import { createHash, randomUUID } from 'node:crypto';
import test from 'ava';
import { appendFiscalEntries } from '../../domain/ledger/fiscal-chain.js';
import { setTenantContext } from '../../domain/shared/tenant-context.js';
import { canonicalJson, chainHead, GENESIS_HASH, nextEntry, seedFiscalEntries } from '../helpers/fiscal-entries.js';
import { seedTenant } from '../helpers/seed.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
test.before(async () => {
  env = await createTestDeps();
});
test.after.always(() => env?.close());

async function seedSubTenant(tenantId: string, environment: 'sandbox' | 'production' = 'sandbox'): Promise<string> {
  const [row] = await env
    .ownerDb('sub_tenants')
    .insert({ tenant_id: tenantId, environment, name: 'Sub' })
    .returning('id');
  return row.id;
}

const pgError = (code: string, message?: RegExp) => ({
  // biome-ignore lint/suspicious/noExplicitAny: pg errors carry `code`
  is: (err: any) => err?.code === code && (!message || message.test(err.message)),
});

test('entries chain from 1 with the genesis hash, one chain per (tenant, sub-tenant or none, environment)', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const subTenantId = await seedSubTenant(tenant.id);
  await seedFiscalEntries(env.ownerDb, { tenantId: tenant.id, environment: 'sandbox' }, 3);
  await seedFiscalEntries(env.ownerDb, { tenantId: tenant.id, environment: 'sandbox', subTenantId }, 2);
  await seedFiscalEntries(env.ownerDb, { tenantId: tenant.id, environment: 'production' }, 1);

  const rows = await env.ownerDb('fiscal_entries').where({ tenant_id: tenant.id }).orderBy(['created_at', 'id']);
  const chainOf = (sub: string | null, environment: string) =>
    rows
      .filter((r) => r.sub_tenant_id === sub && r.environment === environment)
      .sort((a, b) => a.sequence_number - b.sequence_number);
  for (const [sub, environment, length] of [
    [null, 'sandbox', 3],
    [subTenantId, 'sandbox', 2],
    [null, 'production', 1],
  ] as const) {
    const chain = chainOf(sub, environment);
    t.deepEqual(
      chain.map((r) => Number(r.sequence_number)),
      Array.from({ length }, (_, i) => i + 1),
    );
    t.is(chain[0].previous_hash, GENESIS_HASH);
    for (let i = 1; i < chain.length; i++) t.is(chain[i].previous_hash, chain[i - 1].chain_hash);
  }
  t.is(chainOf(null, 'production')[0].legal_status, 'definitive');
  t.is(chainOf(null, 'sandbox')[0].legal_status, 'test');
});

test('UPDATE, DELETE and TRUNCATE are refused with a clear error, even as the owner and even on no row', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const head = await seedFiscalEntries(env.ownerDb, { tenantId: tenant.id, environment: 'sandbox' }, 2);
  const db = env.ownerDb;
  for (const sql of [
    `update fiscal_entries set data_hash = repeat('a', 64) where id = '${head.id}'`,
    `update fiscal_entries set legal_status = 'test' where false`,
    `delete from fiscal_entries where id = '${head.id}'`,
    `delete from fiscal_entries where tenant_id = '${tenant.id}'`,
    'truncate fiscal_entries cascade',
  ]) {
    const err = await t.throwsAsync(db.raw(sql), undefined, sql);
    t.regex(err!.message, /fiscal_entries is append-only: (UPDATE|DELETE|TRUNCATE) is refused/, sql);
    t.is((err as unknown as { code: string }).code, '23001', `${sql}: restrict_violation`);
  }
  // Invoices reference their entries: a plain TRUNCATE is stopped by that reference before the trigger.
  const plain = await t.throwsAsync(db.raw('truncate fiscal_entries'));
  t.regex(plain!.message, /cannot truncate a table referenced in a foreign key constraint/);
  const after = await db('fiscal_entries').where({ tenant_id: tenant.id }).orderBy('sequence_number');
  t.is(after.length, 2);
  t.is(after[1].data_hash, head.data_hash);
});

test('the application role is refused too, and sees only its own tenant’s entries', async (t) => {
  const mine = await seedTenant(env.ownerDb);
  const other = await seedTenant(env.ownerDb);
  await seedFiscalEntries(env.ownerDb, { tenantId: mine.id, environment: 'sandbox' }, 1);
  await seedFiscalEntries(env.ownerDb, { tenantId: other.id, environment: 'sandbox' }, 1);
  const asTenant = <T>(run: (tx: import('knex').Knex.Transaction) => Promise<T>) =>
    env.deps.db.transaction(async (tx) => {
      await setTenantContext(tx, { tenantId: mine.id, environment: 'sandbox', kind: 'tenant' });
      return run(tx);
    });
  const seen = await asTenant((tx) => tx('fiscal_entries').select('tenant_id'));
  t.deepEqual(
    seen.map((r) => r.tenant_id),
    [mine.id],
  );
  // the application role has no UPDATE, DELETE or TRUNCATE privilege on the ledger (the owner meets
  // the append-only triggers: the test above)
  const err = await t.throwsAsync(asTenant((tx) => tx('fiscal_entries').update({ legal_status: 'test' })));
  t.regex(err!.message, /permission denied for table fiscal_entries/);
  const del = await t.throwsAsync(asTenant((tx) => tx('fiscal_entries').delete()));
  t.regex(del!.message, /permission denied for table fiscal_entries/);
  const truncate = await t.throwsAsync(asTenant((tx) => tx.raw('truncate fiscal_entries')));
  t.regex(truncate!.message, /permission denied for table fiscal_entries/);
});

test('an insert that leaves a gap, repeats a number or breaks the hash link is refused', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const chain = { tenantId: tenant.id, environment: 'sandbox' as const };
  const db = env.ownerDb;
  const first = nextEntry(chain, undefined);

  const gap = await t.throwsAsync(db('fiscal_entries').insert({ ...nextEntry(chain, undefined), sequence_number: 2 }));
  t.regex(gap!.message, /sequence_number 2 breaks the chain; the next number is 1/);
  const forged = nextEntry(chain, { sequence_number: 0, chain_hash: 'f'.repeat(64) });
  t.true(
    pgError('23000', /previous_hash must be the chain_hash of entry 0/).is(
      await t.throwsAsync(db('fiscal_entries').insert(forged)),
    ),
  );

  await db('fiscal_entries').insert(first);
  const head = await chainHead(db, chain);
  const repeat = await t.throwsAsync(db('fiscal_entries').insert({ ...nextEntry(chain, head), sequence_number: 1 }));
  t.regex(repeat!.message, /the next number is 2/);
  const skip = await t.throwsAsync(db('fiscal_entries').insert({ ...nextEntry(chain, head), sequence_number: 3 }));
  t.regex(skip!.message, /the next number is 2/);
  t.is((await chainHead(db, chain))?.sequence_number, 1);
});

test('hashes are checked against the stored canonical text, and the entry against its sub-tenant', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const chain = { tenantId: tenant.id, environment: 'sandbox' as const };
  const db = env.ownerDb;
  const entry = nextEntry(chain, undefined);
  const refused = async (row: Record<string, unknown>, constraint: string) => {
    const err = await t.throwsAsync(db('fiscal_entries').insert(row));
    t.is((err as unknown as { constraint?: string }).constraint, constraint);
  };
  // A data hash that is not the SHA-256 of canonical_data, though chained correctly.
  const badDataHash = 'a'.repeat(64);
  const chainHash = createHash('sha256')
    .update(GENESIS_HASH + badDataHash)
    .digest('hex');
  await refused({ ...entry, data_hash: badDataHash, chain_hash: chainHash }, 'fiscal_entries_data_hash_valid');
  await refused({ ...entry, chain_hash: 'b'.repeat(64) }, 'fiscal_entries_chain_hash_valid');
  await refused({ ...entry, data: canonicalJson({ total_ht: 999 }) }, 'fiscal_entries_data_matches_canonical');
  await refused({ ...entry, legal_status: 'definitive' }, 'fiscal_entries_legal_status_environment');

  const production = await seedSubTenant(tenant.id, 'production');
  await refused({ ...entry, sub_tenant_id: production }, 'fiscal_entries_sub_tenant_fk');
  const foreign = await seedSubTenant((await seedTenant(env.ownerDb)).id, 'sandbox');
  await refused({ ...entry, sub_tenant_id: foreign }, 'fiscal_entries_sub_tenant_fk');
  await refused({ ...entry, sub_tenant_id: randomUUID() }, 'fiscal_entries_sub_tenant_fk');
  t.falsy(await chainHead(db, chain));
});

test('each chain keeps its head row in step with its last entry, and no client statement may move it', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const subTenantId = await seedSubTenant(tenant.id);
  const own = { tenantId: tenant.id, environment: 'sandbox' as const };
  const sub = { ...own, subTenantId };
  await seedFiscalEntries(env.ownerDb, own, 3);
  await seedFiscalEntries(env.ownerDb, sub, 2);
  const heads = await env
    .ownerDb('fiscal_chain_heads')
    .where({ tenant_id: tenant.id })
    .orderBy('sequence_number')
    .select('chain_key', 'sequence_number', 'chain_hash');
  t.deepEqual(heads, [
    { chain_key: subTenantId, sequence_number: 2, chain_hash: (await chainHead(env.ownerDb, sub))?.chain_hash },
    {
      chain_key: '00000000-0000-0000-0000-000000000000',
      sequence_number: 3,
      chain_hash: (await chainHead(env.ownerDb, own))?.chain_hash,
    },
  ]);

  for (const write of [
    () => env.ownerDb('fiscal_chain_heads').where({ tenant_id: tenant.id }).update({ sequence_number: 1 }),
    () => env.ownerDb('fiscal_chain_heads').where({ tenant_id: tenant.id }).delete(),
    () =>
      env.ownerDb('fiscal_chain_heads').insert({
        tenant_id: tenant.id,
        environment: 'production',
        chain_key: randomUUID(),
        sequence_number: 7,
        chain_hash: GENESIS_HASH,
      }),
  ]) {
    const err = await t.throwsAsync(write());
    t.regex(err!.message, /fiscal_chain_heads is maintained by the ledger: (UPDATE|DELETE|INSERT) is refused/);
  }
  const truncate = await t.throwsAsync(env.ownerDb.raw('truncate fiscal_chain_heads'));
  t.regex(truncate!.message, /refused/);
  await seedFiscalEntries(env.ownerDb, own, 1);
  t.is((await chainHead(env.ownerDb, own))?.sequence_number, 4, 'appending still moves the head');
});

test('facts of two chains recorded interleaved in one transaction: each chain gets its own, in the order recorded', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const subTenantId = await seedSubTenant(tenant.id);
  await seedFiscalEntries(env.ownerDb, { tenantId: tenant.id, environment: 'sandbox' }, 2);
  const own = { tenantId: tenant.id, environment: 'sandbox' as const, subTenantId: null };
  const sub = { tenantId: tenant.id, environment: 'sandbox' as const, subTenantId };
  const fact = (n: number) => ({
    entryType: 'invoice_created' as const,
    entityType: 'invoice',
    entityId: randomUUID(),
    fiscalDate: '2026-11-26',
    data: { n },
    now: new Date(),
  });
  const recorded = [own, sub, own, sub, own, own].map((chain, n) => ({ chain, fact: fact(n) }));
  await env.deps.db.transaction(async (tx) => {
    await setTenantContext(tx, { tenantId: tenant.id, environment: 'sandbox', kind: 'tenant' });
    await appendFiscalEntries(tx, recorded.slice(0, 3));
    // A fact recorded in a savepoint that is rolled back is never appended.
    await tx
      .transaction(async (savepoint) => {
        await appendFiscalEntries(savepoint, [{ chain: own, fact: fact(99) }]);
        throw new Error('undone');
      })
      .catch(() => {});
    await appendFiscalEntries(tx, recorded.slice(3));
  });
  const chain = async (subTenant: string | null) =>
    env
      .ownerDb('fiscal_entries')
      .where({ tenant_id: tenant.id, environment: 'sandbox', sub_tenant_id: subTenant })
      .orderBy('sequence_number')
      .select('sequence_number', 'entity_id', 'previous_hash', 'chain_hash', 'data_hash', 'canonical_data');
  const ownChain = await chain(null);
  const subChain = await chain(subTenantId);
  t.deepEqual(
    ownChain.slice(2).map((e) => e.entity_id),
    recorded.filter((r) => r.chain === own).map((r) => r.fact.entityId),
  );
  t.deepEqual(
    subChain.map((e) => e.entity_id),
    recorded.filter((r) => r.chain === sub).map((r) => r.fact.entityId),
  );
  t.deepEqual(
    ownChain.map((e) => Number(e.sequence_number)),
    [1, 2, 3, 4, 5, 6],
  );
  for (const entries of [ownChain, subChain]) {
    let previous = GENESIS_HASH;
    for (const e of entries) {
      const dataHash = createHash('sha256').update(e.canonical_data, 'utf8').digest('hex');
      t.is(e.data_hash, dataHash);
      t.is(e.previous_hash, previous);
      t.is(
        e.chain_hash,
        createHash('sha256')
          .update(previous + dataHash, 'utf8')
          .digest('hex'),
      );
      previous = e.chain_hash;
    }
  }
  t.is(Number((await chainHead(env.ownerDb, own))?.sequence_number), 6);
  const head = await env.ownerDb('fiscal_chain_heads').where({ tenant_id: tenant.id, chain_key: subTenantId }).first();
  t.is(head.chain_hash, subChain.at(-1)?.chain_hash, 'the head moved with the last entry');
  t.is(Number((await env.ownerDb('fiscal_pending').where({ tenant_id: tenant.id }).count({ n: '*' }))[0].n), 0);
});
