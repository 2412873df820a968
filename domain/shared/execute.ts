import type { Knex } from 'knex';
import { AppError } from './app-error.js';
import type { Caller } from './caller.js';
import { CommitOutcomeUnknown, commitOutcome } from './commit-outcome.js';
import type { Deps } from './deps.js';
import { batchContext, groupCommitOf } from './group-commit.js';
import type { Logger } from './logger.js';
import type { Operation, OperationContext, Permission, Scope } from './operation.js';
import { setTenantContext, setTenantContextTakingXid } from './tenant-context.js';
import { noEvents, txEvents } from './tx-events.js';
import { noJobs, txJobs } from './tx-jobs.js';

export interface ExecuteOptions<O> {
  /** Coerce string inputs (query strings, path parameters, CLI flags) to the schema's types. */
  coerce?: boolean;
  /** Runs in the operation's transaction after it succeeds (Idempotency-Key records its response here). */
  beforeCommit?: (tx: Knex, output: O) => Promise<void>;
}

/**
 * The one way into the domain: validate the input, check the caller, open the one transaction, set
 * the tenant context for row-level security, and give the operation jobs and events bound to that
 * transaction. It is the only place that opens a transaction.
 */
export async function execute<I, O>(
  op: Operation<I, O>,
  raw: unknown,
  caller: Caller,
  deps: Deps,
  options: ExecuteOptions<O> = {},
): Promise<O> {
  authorize(op, caller);
  const input = deps.schemas.parse<I>(op.input, raw, { coerce: options.coerce });
  // Made on first use: a call written in a group commit's batch logs through the batch's logger.
  let callLog: Logger | undefined;
  const logOf = () => (callLog ??= deps.log.child({ operation: op.name, request_id: caller.requestId ?? undefined }));
  const prepared = op.prepare && !op.batch ? await op.prepare(input, deps, logOf()) : undefined;

  // Public queries that need no database, and commands that call a third party synchronously: they
  // run outside any transaction, and such a command writes only through nested `execute` calls.
  if (op.transactional === false) {
    const output = await op.run(input, {
      tx: deps.db,
      caller,
      jobs: noJobs,
      events: noEvents,
      clock: deps.clock,
      log: logOf(),
      deps,
      prepared,
    });
    if (options.beforeCommit) await options.beforeCommit(deps.db, output);
    return output;
  }
  const lane = op.batch && !options.beforeCommit ? op.batch.key(caller) : null;
  const alone = (written?: () => void) =>
    inTransaction(deps, {
      caller,
      log: logOf(),
      readOnly: op.kind === 'query',
      snapshot: op.snapshot,
      redoneIfLost: op.redoneIfLost,
      run: (ctx) => op.run(input, ctx),
      beforeCommit: options.beforeCommit,
      written,
      prepared,
    });
  if (!op.batch || !lane) return alone();
  const batch = op.batch;
  await batch.check?.(input);
  return groupCommitOf(deps).submit<I, O>(
    `${op.name}:${lane}`,
    { input, caller },
    (calls, written) =>
      inTransaction(deps, {
        ...batchContext(calls),
        log: deps.log.child({ operation: op.name, batch: calls.length }),
        run: (ctx) => batch.run(calls, ctx),
        written,
      }),
    alone,
  );
}

interface TransactionPlan<O> {
  /** Whose tenant context the transaction runs in. */
  caller: Caller;
  /** A group commit's transaction of several tenants: theirs (group-commit.ts, batchContext). */
  tenants?: string[] | null;
  log: Logger;
  readOnly?: boolean;
  snapshot?: boolean;
  /** Operation.redoneIfLost: the commit does not wait for the WAL flush. */
  redoneIfLost?: boolean;
  run(ctx: OperationContext): Promise<O>;
  beforeCommit?: (tx: Knex, output: O) => Promise<void>;
  /** Called when everything is written, just before the commit (group commit frees the lane then). */
  written?: () => void;
  /** The operation's `prepare` result. */
  prepared?: unknown;
}

/**
 * The operation's one transaction, its tenant context, and jobs and events bound to it.
 *
 * A COMMIT can fail without saying whether it happened (the connection is lost while committing).
 * Running the work again could then write it twice (a group commit's calls re-run alone: a second
 * invoice, a second debit), and reporting a failure could hide a success. So a write transaction
 * takes its id first, and after such a failure the database is asked on another connection:
 * committed → the output stands; aborted → the original error, as for any failed transaction;
 * unknown → CommitOutcomeUnknown (503), never run again here.
 */
async function inTransaction<O>(deps: Deps, plan: TransactionPlan<O>): Promise<O> {
  const readOnly = plan.readOnly ?? false;
  let xid: string | null = null;
  let committing = false;
  let output: O | undefined;
  try {
    return await deps.db.transaction(
      async (tx) => {
        if (readOnly) await setTenantContext(tx, plan.caller);
        else xid = await setTenantContextTakingXid(tx, plan.caller, !plan.redoneIfLost, plan.tenants);
        const jobs = readOnly ? noJobs : txJobs(deps.boss, tx);
        const events = readOnly ? noEvents : txEvents(tx, jobs, plan.caller, () => deps.clock.now());
        const ctx: OperationContext = {
          tx,
          caller: plan.caller,
          jobs,
          events,
          clock: deps.clock,
          log: plan.log,
          deps,
          prepared: plan.prepared,
        };
        output = await plan.run(ctx);
        if (plan.beforeCommit) await plan.beforeCommit(tx, output);
        plan.written?.();
        committing = true;
        return output;
      },
      plan.snapshot ? { readOnly, isolationLevel: 'repeatable read' } : { readOnly },
    );
  } catch (err) {
    if (!committing || xid === null) throw err;
    const outcome = await commitOutcome(deps.db, xid);
    plan.log.warn({ err, xid, outcome }, 'commit failed without an answer; its outcome was looked up');
    if (outcome === 'committed') return output as O;
    if (outcome === 'aborted') throw err;
    throw new CommitOutcomeUnknown(err);
  }
}

/** The caller's kind, then the scope its credential carries, then the user's permission. */
export function authorize(op: Operation<never, unknown>, caller: Caller): void {
  if (!op.callers.includes(caller.kind)) {
    if (caller.kind === 'anonymous') {
      throw new AppError('UNAUTHENTICATED', `${op.name} needs credentials: send your API key in X-API-Key.`);
    }
    throw new AppError('FORBIDDEN', `${op.name} is not available to this credential.`);
  }
  if (op.scope) requireScope(caller, op.scope, op.name);
  if (op.permission) requirePermission(caller, op.permission, op.name);
}

/**
 * The calling user holds `permission`, signed in as itself: a bearer token or a cookie session. An
 * API key carries scopes only, never its creator's permissions, so a leaked key cannot reach the
 * admin routes even if one of them ever takes keys.
 */
export function requirePermission(caller: Caller, permission: Permission, operation: string): void {
  const signedIn = caller.credential?.type === 'access_token' || caller.credential?.type === 'session';
  if (caller.kind === 'user' && signedIn && caller.permissions?.includes(permission)) return;
  throw new AppError('FORBIDDEN', `${operation} needs the "${permission}" permission: sign in as an admin.`);
}

/** The caller's credential carries `scope` (operations whose input decides a second scope call it too). */
export function requireScope(caller: Caller, scope: Scope, operation: string): void {
  if (caller.scopes.includes('*') || caller.scopes.includes(scope)) return;
  if (scope.startsWith('fiscal:')) {
    throw new AppError('FISCAL_SCOPE_DENIED', `${operation} needs the ${scope} scope on the API key.`);
  }
  throw new AppError('FORBIDDEN', `${operation} needs the ${scope} scope on the API key.`);
}
