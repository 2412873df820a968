import { isAppError } from './app-error.js';
import { BatchQueue } from './batch-queue.js';
import type { Caller } from './caller.js';
import { isCommitOutcomeUnknown } from './commit-outcome.js';
import type { Deps } from './deps.js';
import type { BatchCall } from './operation.js';

/**
 * Calls written together at most; more wait for the next transaction of their lane. Small enough
 * that under a heavy burst two batches alternate (one writes while the other commits and its
 * callers come back) rather than one huge batch and a lane that idles between its turns.
 */
export const MAX_BATCH = 25;

interface Waiting<I, O> extends BatchCall<I> {
  alone: RunAlone<O>;
  resolve: (output: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Writes the calls in one transaction. `written` is called once the rows are written, before the
 * commit: the lane's next transaction may start writing while this one commits.
 */
type RunBatch<I> = (calls: readonly BatchCall<I>[], written: () => void) => Promise<unknown[]>;
/** Writes one call in its own transaction; `written` as for a batch. */
type RunAlone<O> = (written?: () => void) => Promise<O>;

/**
 * Transactions of one lane writing their rows at once. A transaction that has written its rows
 * gives up its place while it commits (taking its chain locks, flushing), so the next one writes
 * meanwhile; one writer gathers everyone who arrived during the previous write into one batch.
 */
export const MAX_IN_FLIGHT = 1;

/**
 * Transactions of one lane writing at once, when those beyond MAX_IN_FLIGHT share no tenant with
 * the others: a tenant's lone creation does not wait behind another tenant's burst.
 */
export const MAX_IN_FLIGHT_APART = 2;

/**
 * Under load, how long a lane's next transaction may wait for company when fewer than half as
 * many calls wait as the last one carried: about the time a batch's callers take to come back
 * (its commit, the responses, their next requests). Without it, the first caller back would be
 * written alone and the others would wait for that whole transaction. A lane whose last
 * transaction carried one call never waits (PostgreSQL's commit_delay and commit_siblings work
 * the same way).
 */
export const LINGER_MS = 20;

/**
 * Group commit. Calls of a batchable command that share a lane (one environment) run at once
 * while fewer than MAX_IN_FLIGHT transactions of their lane are writing; the others wait, and the
 * next transaction writes all of them: under load a lane commits many calls at a time, each chain
 * lock is taken once per batch and the commit's disk flush is shared; alone, a call runs at once in
 * its own transaction, as without batching. A batch that fails (a taken number, a short balance, a
 * deadlock) is undone and each of its calls runs alone, so every caller gets exactly the outcome it
 * would have had on its own; when the batch names the calls that broke it (`CallsNotWritable`),
 * those run alone and the others are written together again. A batch whose commit was lost is
 * looked up first (execute.ts): one that committed answers its callers; one whose outcome is
 * unknown answers them all 503, never re-run.
 */
export class GroupCommit {
  private readonly lanes = new Map<string, BatchQueue<Waiting<unknown, unknown>>>();

  submit<I, O>(lane: string, call: BatchCall<I>, runBatch: RunBatch<I>, alone: RunAlone<O>): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const waiting = { ...call, alone, resolve, reject } as unknown as Waiting<unknown, unknown>;
      let queue = this.lanes.get(lane);
      if (!queue) {
        queue = new BatchQueue<Waiting<unknown, unknown>>(
          {
            maxInFlight: MAX_IN_FLIGHT,
            maxInFlightApart: MAX_IN_FLIGHT_APART,
            maxBatch: MAX_BATCH,
            lingerMs: LINGER_MS,
            ownerOf: tenantOf,
          },
          (calls, release) => settle(calls, runBatch as RunBatch<unknown>, release),
          // kept while it may still linger, so that callers coming back find it warm
          () =>
            setTimeout(() => {
              if (queue?.idle && this.lanes.get(lane) === queue) this.lanes.delete(lane);
            }, LINGER_MS).unref(),
        );
        this.lanes.set(lane, queue);
      }
      queue.push(waiting);
    });
  }
}

/**
 * Thrown by a batch's `run` when some of its calls cannot be written with the others (an invoice
 * number already taken, a tenant's balance that does not cover its invoices): the batch is undone,
 * those calls run alone for their own outcome, and the others are written together again.
 */
export class CallsNotWritable extends Error {
  constructor(
    /** The indexes of those calls in the batch. */
    readonly calls: readonly number[],
    cause: unknown,
  ) {
    super(`${calls.length} call(s) of the batch cannot be written with the others`, { cause });
  }
}

/**
 * Runs the calls together (or the one call alone) and answers each caller. A batch that names the
 * calls it cannot write is written again without them, until it writes or fails otherwise: each
 * attempt has fewer calls, so a batch of n takes at most n transactions, as alone.
 */
async function settle(
  calls: Waiting<unknown, unknown>[],
  runBatch: RunBatch<unknown>,
  release: () => void,
): Promise<void> {
  if (calls.length === 0) return;
  if (calls.length === 1) {
    await runAlone(calls[0], release);
    return;
  }
  let results: unknown[];
  try {
    results = await runBatch(calls, release);
  } catch (err) {
    // The batch may be in the database already: running its calls again could write them twice.
    if (isCommitOutcomeUnknown(err)) {
      for (const call of calls) call.reject(err);
      return;
    }
    // A few calls broke it (one tenant's reused number): the others need not lose their batch.
    if (err instanceof CallsNotWritable && err.calls.length > 0) {
      const apart = new Set(err.calls);
      await Promise.all([
        settle(
          calls.filter((_, i) => !apart.has(i)),
          runBatch,
          release,
        ),
        ...calls.filter((_, i) => apart.has(i)).map((call) => runAlone(call)),
      ]);
      return;
    }
    // Undone: each call is written again on its own transaction.
    await Promise.all(calls.map((call) => runAlone(call)));
    return;
  }
  for (const [i, call] of calls.entries()) {
    if (isAppError(results[i])) call.reject(results[i]);
    else call.resolve(results[i]);
  }
}

/** Writes one call in its own transaction and answers its caller. */
const runAlone = (call: Waiting<unknown, unknown>, written?: () => void): Promise<void> =>
  call.alone(written).then(call.resolve, call.reject);

const perProcess = new WeakMap<Deps, GroupCommit>();

/** The group commit of a process's dependencies (one per web or worker process). */
export function groupCommitOf(deps: Deps): GroupCommit {
  let commit = perProcess.get(deps);
  if (!commit) {
    commit = new GroupCommit();
    perProcess.set(deps, commit);
  }
  return commit;
}

/** A lane's calls are batched by tenant in turn: one tenant's burst never holds up another's calls. */
const tenantOf = (waiting: Waiting<unknown, unknown>): string => waiting.caller.tenantId ?? '';

/**
 * The lane of a caller whose calls may share a transaction with other tenants' calls: its kind and
 * environment (each transaction then runs in the context `batchContext` makes of its calls).
 */
export const environmentLane = (caller: Caller): string | null =>
  caller.tenantId && caller.environment ? `${caller.kind}:${caller.environment}` : null;

/** The tenant context of a batch's transaction (execute.ts). */
export interface BatchContext {
  caller: Caller;
  /** The tenants whose rows the transaction may see and write; null when it is its caller's tenant. */
  tenants: string[] | null;
}

/**
 * The context a batch's transaction runs in: its callers' own when they share one tenant; else a
 * caller of their kind and environment with no tenant of its own, and the batch's tenants, whose
 * rows alone row-level security then lets the transaction see and write (`app.tenant_ids`). Every
 * write of such a batch names its tenant; one that leaves it to the caller finds none and fails,
 * which undoes the batch and runs each call alone.
 */
export function batchContext(calls: readonly BatchCall<unknown>[]): BatchContext {
  const first = calls[0].caller;
  const tenants = [...new Set(calls.map((call) => call.caller.tenantId ?? ''))];
  if (tenants.length === 1) return { caller: first, tenants: null };
  return {
    caller: { kind: first.kind, tenantId: null, environment: first.environment, scopes: [] },
    tenants: tenants.sort(),
  };
}
