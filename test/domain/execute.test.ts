import test from 'ava';
import { SCHEMAS } from '../../domain/container.js';
import { getPricing } from '../../domain/platform/operations/get-pricing.js';
import { AppError } from '../../domain/shared/app-error.js';
import { anonymousCaller, type Caller, systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { defineCommand, defineQuery } from '../../domain/shared/operation.js';
import { testSchemaRegistry } from '../fixtures/test-routes.js';
import { queuedJobs, seedTenant } from '../helpers/seed.js';
import { createTestDeps, type TestDeps } from '../helpers/test-deps.js';

let env: TestDeps;
test.before(async () => {
  env = await createTestDeps({ override: (c) => c.register(SCHEMAS, { useValue: testSchemaRegistry() }) });
});
test.after.always(() => env?.close());

const input = (tenantId: string) => ({
  tenant_id: tenantId,
  customer_email: 'a@example.com',
  lines: [{ description: 'x', quantity: 1 }],
});

interface Seen {
  eventsInTx: number;
  dispatchJobsInTx: number;
}

/** Emits an event (row + dispatch job), sends a job of its own, notes what its transaction sees, then fails or not. */
const emitThen = (fail: boolean, seen?: Seen) =>
  defineCommand<{ tenant_id: string }, { event_id: string }>({
    name: fail ? 'emit_then_fail' : 'emit_then_commit',
    summary: 'Test command.',
    input: 'RecordOrderInput',
    output: 'RecordedOrder',
    callers: ['system'],
    async run(args, ctx) {
      const eventId = await ctx.events.emit('invoice.created', { id: args.tenant_id }, { environment: 'sandbox' });
      await ctx.jobs.send('purge-idempotency-keys', {});
      if (seen) {
        seen.eventsInTx = Number((await ctx.tx('events').where({ id: eventId }).count({ n: '*' }))[0].n);
        const { rows } = await ctx.tx.raw(
          "select count(*)::int as n from pgboss.job where name = 'dispatch-event' and data->>'eventId' = ?",
          [eventId],
        );
        seen.dispatchJobsInTx = rows[0].n;
      }
      if (fail) throw new AppError('CONFLICT', 'refused after writing');
      return { event_id: eventId };
    },
  });

const jobsFor = async (eventId: string) =>
  (await queuedJobs(env.ownerDb, 'dispatch-event')).filter((data) => data.eventId === eventId);

test.serial('a job sent inside a rolled-back operation does not exist, nor does its event', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const purgeJobsBefore = (await queuedJobs(env.ownerDb, 'purge-idempotency-keys')).length;
  const seen: Seen = { eventsInTx: 0, dispatchJobsInTx: 0 };
  await t.throwsAsync(execute(emitThen(true, seen), input(tenant.id), systemCaller(tenant.id, 'sandbox'), env.deps), {
    instanceOf: AppError,
    message: 'refused after writing',
  });
  t.deepEqual(seen, { eventsInTx: 1, dispatchJobsInTx: 1 }, 'inside the transaction both were written');
  t.is(Number((await env.ownerDb('events').where({ tenant_id: tenant.id }).count({ n: '*' }))[0].n), 0);
  t.is((await queuedJobs(env.ownerDb, 'purge-idempotency-keys')).length, purgeJobsBefore);
  const dispatchJobs = await queuedJobs(env.ownerDb, 'dispatch-event');
  t.false(dispatchJobs.some((data) => data.tenantId === tenant.id));
});

test.serial('a job sent inside a committed operation exists, with its event', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const out = await execute(emitThen(false), input(tenant.id), systemCaller(tenant.id, 'sandbox'), env.deps);
  const event = await env.ownerDb('events').where({ id: out.event_id }).first();
  t.like(event, { tenant_id: tenant.id, name: 'invoice.created', environment: 'sandbox', dispatched_at: null });
  t.deepEqual(await jobsFor(out.event_id), [{ eventId: out.event_id, tenantId: tenant.id }]);
});

test('the tenant context is set for row-level security inside the transaction', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const probe = defineQuery<Record<string, never>, Record<string, string>>({
    name: 'probe_context',
    summary: 'Test query.',
    input: 'EmptyInput',
    output: 'EmptyInput',
    callers: ['system'],
    async run(_input, ctx) {
      const { rows } = await ctx.tx.raw(
        "select current_setting('app.tenant_id') as tenant, current_setting('app.environment') as env, current_setting('transaction_read_only') as ro",
      );
      return rows[0];
    },
  });
  t.deepEqual(await execute(probe, {}, systemCaller(tenant.id, 'production'), env.deps), {
    tenant: tenant.id,
    env: 'production',
    ro: 'on',
  });
});

test('the caller is checked before anything runs: kind, then scope', async (t) => {
  const anonymousDenied = await t.throwsAsync(execute(emitThen(false), {}, anonymousCaller(), env.deps));
  t.is((anonymousDenied as AppError).code, 'UNAUTHENTICATED');

  const scoped = defineQuery<Record<string, never>, Record<string, never>>({
    name: 'fiscal_probe',
    summary: 'Test query.',
    input: 'EmptyInput',
    output: 'EmptyInput',
    callers: ['tenant'],
    scope: 'fiscal:read',
    run: async () => ({}),
  });
  const tenantCaller: Caller = { kind: 'tenant', tenantId: null, environment: 'sandbox', scopes: ['invoices'] };
  const denied = await t.throwsAsync(execute(scoped, {}, tenantCaller, env.deps));
  t.is((denied as AppError).code, 'FISCAL_SCOPE_DENIED');
  t.deepEqual(await execute(scoped, {}, { ...tenantCaller, scopes: ['fiscal:read'] }, env.deps), {});
});

test('input is validated before the operation runs', async (t) => {
  const err = await t.throwsAsync(execute(getPricing, { unexpected: 1 }, anonymousCaller(), env.deps));
  t.is((err as AppError).code, 'VALIDATION_ERROR');
  t.deepEqual((err as AppError).extra.fields, { unexpected: ['is not an allowed property'] });
});

test('prepare runs after the checks and before the transaction; its result is ctx.prepared, its refusal writes nothing', async (t) => {
  const tenant = await seedTenant(env.ownerDb);
  const steps: string[] = [];
  const prepared = (refuse: boolean) =>
    defineCommand<{ tenant_id: string }, { event_id: string }>({
      name: 'prepared_command',
      summary: 'Test command.',
      input: 'RecordOrderInput',
      output: 'RecordedOrder',
      callers: ['system'],
      async prepare(args) {
        steps.push('prepare');
        if (refuse) throw AppError.validation({ file: ['cannot be read'] });
        return { token: `for ${args.tenant_id}` };
      },
      async run(args, ctx) {
        steps.push(`run with ${(ctx.prepared as { token: string }).token}`);
        return {
          event_id: await ctx.events.emit('invoice.created', { id: args.tenant_id }, { environment: 'sandbox' }),
        };
      },
    });
  const caller = systemCaller(tenant.id, 'sandbox');
  await t.throwsAsync(execute(prepared(false), { tenant_id: 'not a uuid' }, caller, env.deps));
  t.deepEqual(steps, [], 'an invalid input is refused before prepare');
  const before = Number((await env.ownerDb('events').where({ tenant_id: tenant.id }).count({ n: '*' }))[0].n);
  await t.throwsAsync(execute(prepared(true), input(tenant.id), caller, env.deps), { code: 'VALIDATION_ERROR' });
  t.deepEqual(steps, ['prepare']);
  t.is(Number((await env.ownerDb('events').where({ tenant_id: tenant.id }).count({ n: '*' }))[0].n), before);
  await execute(prepared(false), input(tenant.id), caller, env.deps);
  t.deepEqual(steps, ['prepare', 'prepare', `run with for ${tenant.id}`]);
});

/** A command that reads its transaction's `synchronous_commit`, declared redone if lost or not. */
const readsCommitSetting = (redoneIfLost: boolean, seen: string[]) =>
  defineCommand<{ tenant_id: string }, { event_id: string }>({
    name: redoneIfLost ? 'redone_if_lost' : 'flushed_commit',
    summary: 'Test command.',
    input: 'RecordOrderInput',
    output: 'RecordedOrder',
    callers: ['system'],
    redoneIfLost,
    async run(args, ctx) {
      seen.push((await ctx.tx.raw('show synchronous_commit')).rows[0].synchronous_commit);
      return { event_id: args.tenant_id };
    },
  });

test('a step redone if lost commits without waiting for the WAL flush; every other write waits, before and after', async (t) => {
  const { id: tenantId } = await seedTenant(env.ownerDb);
  const seen: string[] = [];
  const caller = systemCaller(tenantId);
  await execute(readsCommitSetting(false, seen), input(tenantId), caller, env.deps);
  await execute(readsCommitSetting(true, seen), input(tenantId), caller, env.deps);
  await execute(readsCommitSetting(false, seen), input(tenantId), caller, env.deps);
  t.deepEqual(seen, ['on', 'off', 'on']);
});
