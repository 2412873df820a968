import test from 'ava';
import type { Knex } from 'knex';
import { createInvoice } from '../../domain/invoicing/operations/create-invoice.js';
import type { Caller } from '../../domain/shared/caller.js';
import { CommitOutcomeUnknown, commitOutcome } from '../../domain/shared/commit-outcome.js';
import { execute } from '../../domain/shared/execute.js';
import { GroupCommit } from '../../domain/shared/group-commit.js';
import { type SeededTenant, seedPlatformTenant } from '../helpers/identities.js';
import { invoiceBody } from '../helpers/invoice-bodies.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

/**
 * A COMMIT whose answer is lost with its connection. The tests break the connection of every
 * transaction that writes invoices exactly at its COMMIT, on the connection itself (no timing):
 * either the server commits and the client only sees the connection die, or the backend is
 * terminated just before the COMMIT is sent.
 */
let t0: TestDeps;
test.before(async () => {
  t0 = await createTestDeps({ env: { RATE_LIMIT_SCALE: '0' } });
});
test.after.always(() => t0?.close());

interface PgConnection {
  processID: number;
  __knexUid: string;
  __knex__disposed?: unknown;
  query: (config: { text: string }, callback: (err: Error | null, res?: unknown) => void) => void;
}

/** How a COMMIT is broken: after the server committed, or by killing the backend before it is sent. */
type Break = 'after-commit' | 'kill-before-commit';

/**
 * Breaks the COMMIT of the transactions that insert invoices (those `pick` chooses by their order,
 * from 1); returns how many were broken, and a stop.
 */
function breakInvoiceCommits(db: Knex, owner: Knex, how: Break, pick: (ordinal: number) => boolean = () => true) {
  const seen: string[] = [];
  const writers = new Set<string>();
  let broken = 0;
  const connectionOf = (uid: string): PgConnection | undefined => {
    const pool = (db.client as { pool: { used: { resource: PgConnection }[] } }).pool;
    return pool.used.map((u) => u.resource).find((c) => c.__knexUid === uid);
  };
  const listener = (q: { sql: string; __knexUid: string; __knexTxId?: string }) => {
    if (!q.__knexTxId) return;
    if (/insert into "?invoices"? /i.test(q.sql) && !seen.includes(q.__knexTxId)) {
      seen.push(q.__knexTxId);
      if (pick(seen.length)) writers.add(q.__knexTxId);
    }
    if (q.sql !== 'COMMIT;' || !writers.has(q.__knexTxId)) return;
    writers.delete(q.__knexTxId);
    const connection = connectionOf(q.__knexUid);
    if (!connection) throw new Error('the transaction connection was not found in the pool');
    broken++;
    const commit = connection.query.bind(connection);
    const lost = () => {
      const err = new Error('Connection terminated unexpectedly');
      connection.__knex__disposed = err; // the pool drops it, as it drops any broken connection
      return err;
    };
    connection.query = (config, callback) => {
      connection.query = commit;
      if (how === 'after-commit') {
        // the server commits; the answer never reaches the client
        commit(config, () => callback(lost()));
        return;
      }
      owner
        .raw('select pg_terminate_backend(?)', [connection.processID])
        .then(async () => {
          for (;;) {
            const { rows } = await owner.raw('select 1 from pg_stat_activity where pid = ?', [connection.processID]);
            if (rows.length === 0) break;
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        })
        .then(() => commit(config, (err, res) => callback(err ?? lost(), res)));
    };
  };
  db.on('query', listener);
  return {
    broken: () => broken,
    stop: () => db.removeListener('query', listener),
  };
}

const callerOf = (tenant: SeededTenant): Caller => ({
  kind: 'tenant',
  tenantId: tenant.tenantId,
  subTenantId: null,
  environment: 'production',
  scopes: ['*'],
  credential: null,
});

async function burst(tenant: SeededTenant, n: number) {
  // started in one tick: the first runs alone at once, the others wait for it and share one batch
  return Promise.allSettled(
    Array.from({ length: n }, (_, i) =>
      execute(createInvoice, invoiceBody({ external_id: `order-${i}` }), callerOf(tenant), t0.deps),
    ),
  );
}

async function written(tenant: SeededTenant) {
  const invoices = await t0
    .ownerDb('invoices')
    .where({ tenant_id: tenant.tenantId })
    .select('id', 'external_id', 'xmin');
  const balance = await t0.ownerDb('balances').where({ tenant_id: tenant.tenantId }).first<{ amount: string }>();
  return { invoices, balance: balance.amount };
}

async function seeded() {
  const tenant = await seedPlatformTenant(t0.ownerDb, { kyb: 'verified' });
  await t0.ownerDb('balances').where({ tenant_id: tenant.tenantId }).update({ amount: '10.00' });
  return tenant;
}

test.serial('committed but the answer lost: each caller gets its invoice, written and debited once', async (t) => {
  const tenant = await seeded();
  const breaker = breakInvoiceCommits(t0.deps.db, t0.ownerDb, 'after-commit');
  let outcomes: Awaited<ReturnType<typeof burst>>;
  try {
    outcomes = await burst(tenant, 6);
  } finally {
    breaker.stop();
  }
  t.is(breaker.broken(), 2, 'the lone first call and the batch of the five others');
  const { invoices, balance } = await written(tenant);
  t.is(invoices.length, 6, 'nothing was written twice');
  t.is(new Set(invoices.map((i) => i.xmin)).size, 2, 'one transaction alone, one batch of five');
  t.is(balance, '9.76', 'six debits of 0.04 EUR, no more');
  const ids = outcomes.map((o) => (o.status === 'fulfilled' ? o.value.id : String(o.reason)));
  t.deepEqual([...ids].sort(), invoices.map((i) => i.id).sort(), 'each caller got the invoice that was written');
});

test.serial('the backend killed before COMMIT: the batch was undone, so its calls run again, once', async (t) => {
  const tenant = await seeded();
  const breaker = breakInvoiceCommits(t0.deps.db, t0.ownerDb, 'kill-before-commit');
  let outcomes: Awaited<ReturnType<typeof burst>>;
  try {
    outcomes = await burst(tenant, 6);
  } finally {
    breaker.stop();
  }
  // The lone first call was aborted: its caller gets the error, as for any failed transaction. The
  // batch was aborted: each of its calls ran again alone (those commits broke too, and were aborted).
  t.true(breaker.broken() >= 2);
  t.true(outcomes.every((o) => o.status === 'rejected'));
  const { invoices, balance } = await written(tenant);
  t.is(invoices.length, 0, 'every aborted transaction left nothing');
  t.is(balance, '10.00');
});

test.serial(
  'the backend killed before the batch COMMIT only: its calls are re-run alone and each written once',
  async (t) => {
    const tenant = await seeded();
    // the second invoice-writing transaction is the batch; the lone first call and the re-runs commit
    const onlyBatch = breakInvoiceCommits(t0.deps.db, t0.ownerDb, 'kill-before-commit', (ordinal) => ordinal === 2);
    let outcomes: Awaited<ReturnType<typeof burst>>;
    try {
      outcomes = await burst(tenant, 6);
    } finally {
      onlyBatch.stop();
    }
    t.is(onlyBatch.broken(), 1);
    t.true(
      outcomes.every((o) => o.status === 'fulfilled'),
      JSON.stringify(outcomes),
    );
    const { invoices, balance } = await written(tenant);
    t.is(invoices.length, 6);
    t.is(new Set(invoices.map((i) => i.xmin)).size, 6, 'the batch was undone; its five calls each committed alone');
    t.is(balance, '9.76');
  },
);

test.serial(
  'an outcome the database cannot tell is unknown; a group commit then answers 503 and runs nothing again',
  async (t) => {
    // in progress for as long as the checks last: unknown
    const open = await t0.ownerDb.transaction();
    try {
      const { rows } = await open.raw('select txid_current()::text as xid');
      t.is(await commitOutcome(t0.deps.db, rows[0].xid, 3, 5), 'unknown');
    } finally {
      await open.rollback();
    }
    const committed = await t0.ownerDb.transaction(
      async (tx) => (await tx.raw('select txid_current()::text as xid')).rows[0].xid,
    );
    t.is(await commitOutcome(t0.deps.db, committed), 'committed');
    const aborted = await t0.ownerDb.transaction();
    const abortedXid = (await aborted.raw('select txid_current()::text as xid')).rows[0].xid;
    await aborted.rollback();
    t.is(await commitOutcome(t0.deps.db, abortedXid), 'aborted');

    const commit = new GroupCommit();
    const ranAlone: number[] = [];
    const caller = callerOf({ tenantId: 't' } as SeededTenant);
    const calls = [1, 2, 3].map((input) =>
      commit.submit(
        'lane',
        { input, caller },
        async () => {
          throw new CommitOutcomeUnknown(new Error('Connection terminated unexpectedly'));
        },
        async () => {
          ranAlone.push(input);
          return input;
        },
      ),
    );
    const outcomes = await Promise.allSettled(calls);
    t.deepEqual(ranAlone, [1], 'only the first call, which found the lane free, ran alone; the batch never re-ran');
    t.is(outcomes[0].status, 'fulfilled');
    for (const o of outcomes.slice(1)) {
      t.is(o.status, 'rejected');
      const err = (o as PromiseRejectedResult).reason as CommitOutcomeUnknown;
      t.is(err.status, 503);
      t.deepEqual(err.extra.body, { commit_outcome: 'unknown' });
    }
  },
);
