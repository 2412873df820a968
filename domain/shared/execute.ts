import type { Knex } from 'knex';
import { AppError } from './app-error.js';
import type { Caller } from './caller.js';
import type { Deps } from './deps.js';
import type { Operation, OperationContext } from './operation.js';
import { setTenantContext } from './tenant-context.js';
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
  const log = deps.log.child({ operation: op.name, request_id: caller.requestId ?? undefined });

  // Public queries that need no database, and commands that call a third party synchronously: they
  // run outside any transaction, and such a command writes only through nested `execute` calls.
  if (op.transactional === false) {
    const output = await op.run(input, {
      tx: deps.db,
      caller,
      jobs: noJobs,
      events: noEvents,
      clock: deps.clock,
      log,
      deps,
    });
    if (options.beforeCommit) await options.beforeCommit(deps.db, output);
    return output;
  }
  const readOnly = op.kind === 'query';
  return deps.db.transaction(
    async (tx) => {
      await setTenantContext(tx, caller);
      const jobs = readOnly ? noJobs : txJobs(deps.boss, tx);
      const events = readOnly ? noEvents : txEvents(tx, jobs, caller, () => deps.clock.now());
      const ctx: OperationContext = { tx, caller, jobs, events, clock: deps.clock, log, deps };
      const output = await op.run(input, ctx);
      if (options.beforeCommit) await options.beforeCommit(tx, output);
      return output;
    },
    { readOnly },
  );
}

/** The caller's kind, then the scope its credential carries. */
export function authorize(op: Operation<never, unknown>, caller: Caller): void {
  if (!op.callers.includes(caller.kind)) {
    if (caller.kind === 'anonymous') {
      throw new AppError('UNAUTHENTICATED', `${op.name} needs credentials: send your API key in X-API-Key.`);
    }
    throw new AppError('FORBIDDEN', `${op.name} is not available to this credential.`);
  }
  if (!op.scope || caller.scopes.includes('*') || caller.scopes.includes(op.scope)) return;
  if (op.scope.startsWith('fiscal:')) {
    throw new AppError('FISCAL_SCOPE_DENIED', `${op.name} needs the ${op.scope} scope on the API key.`);
  }
  throw new AppError('FORBIDDEN', `${op.name} needs the ${op.scope} scope on the API key.`);
}
