import type { Knex } from 'knex';
import type { AppError } from './app-error.js';
import type { Caller, CallerKind } from './caller.js';
import type { Clock } from './clock.js';
import type { Deps } from './deps.js';
import type { Logger } from './logger.js';
import type { EventEmitter } from './tx-events.js';
import type { JobSender } from './tx-jobs.js';

/**
 * Scopes an API key can carry: the specification's (`invoices`, `signatures`, `fiscal:*`, "Scopes and
 * roles") and ours for the tenant's own settings: its keys, profile, webhook and sub-tenants.
 */
export type Scope =
  | 'invoices'
  | 'signatures'
  | 'fiscal:read'
  | 'fiscal:write'
  | 'fiscal:admin'
  | 'keys:write'
  | 'profile:write'
  | 'webhooks:read'
  | 'webhooks:write'
  | 'sub_tenants:write';

/**
 * Permissions a dashboard user can hold (spec "Scopes and roles": admin routes need `admin access`).
 * Unlike scopes, they come with the user's own sign-in only (bearer token, cookie session), never
 * with an API key.
 */
export type Permission = 'admin access';

export interface OperationContext {
  /** The operation's transaction (commands) or the database (public queries). */
  tx: Knex;
  caller: Caller;
  jobs: JobSender;
  events: EventEmitter;
  clock: Clock;
  log: Logger;
  deps: Deps;
  /** What the operation's `prepare` returned, when it has one. */
  prepared?: unknown;
}

export interface Operation<I = unknown, O = unknown> {
  /** verb_noun; also the MCP tool name. */
  name: string;
  /** One or two sentences for a stranger: the OpenAPI summary and the MCP description. */
  summary: string;
  kind: 'command' | 'query';
  /** Schema `$id`s of the input and the output. */
  input: string;
  output: string;
  /** Who may call it; `anonymous` makes it public. */
  callers: readonly CallerKind[];
  /** Scope the caller's credential must carry, if any. */
  scope?: Scope;
  /** Permission the calling user must hold, through a bearer token or cookie session (403 otherwise). */
  permission?: Permission;
  /**
   * false: runs without a transaction, jobs or events. Queries that must answer without one (the
   * health check), and commands that wait on a third party (a webhook test call), which must not
   * hold a transaction open across the call: they read and write through nested `execute` calls.
   */
  transactional?: boolean;
  /**
   * true: the commit does not wait for its WAL to reach the disk (`synchronous_commit = off`). Only
   * for a worker step that its job redoes if it is lost: the job's completion, committed after it
   * and flushed, flushes it too (the WAL is written in order), and a crash before that leaves the
   * job to run again. For steps that write many bytes (a batch of documents).
   */
  redoneIfLost?: boolean;
  /**
   * Reads one consistent snapshot: the transaction runs at REPEATABLE READ, so everything it reads
   * is as of its first statement (an export whose files must agree with each other).
   */
  snapshot?: boolean;
  /**
   * Work on the input that needs no database and must not hold a transaction open (parsing an
   * untrusted file off the event loop): runs after the caller and the input are checked, before
   * the transaction opens; its result is `ctx.prepared`. A throw refuses the call, nothing written.
   * Not run for calls grouped by `batch`.
   */
  prepare?(input: I, deps: Deps, log: Logger): Promise<unknown>;
  /** Concurrent calls that may be written together, in one transaction (domain/shared/group-commit.ts). */
  batch?: BatchSpec<I, O>;
  run(input: I, ctx: OperationContext): Promise<O>;
}

/** One call of a batch: its validated input and its caller. */
export interface BatchCall<I> {
  input: I;
  caller: Caller;
}

/**
 * How a command runs many concurrent calls in one transaction (group commit): one commit, one
 * flush and one turn of each lock they need, for all of them.
 */
export interface BatchSpec<I, O> {
  /**
   * Calls with the same key may share a transaction; null runs the call alone. The key must hold
   * the caller kind and the environment; calls of several tenants may share it, and their
   * transaction then sees and writes those tenants' rows only (group-commit.ts, `batchContext`).
   */
  key(caller: Caller): string | null;
  /**
   * Checks that need no database (a body's arithmetic, a file's content), run before the call
   * waits for its lane, outside any transaction: a refused call is answered at once, and the
   * shared transaction spends its time on writes only.
   */
  check?(input: I): Promise<void>;
  /**
   * Runs the calls in the batch's transaction, whose context is its callers' tenants. A result may be
   * the AppError of a call refused before it wrote anything; any throw undoes the whole batch, and
   * every call is then run alone (`run`) to get its own outcome.
   */
  run(calls: readonly BatchCall<I>[], ctx: OperationContext): Promise<(O | AppError)[]>;
}

type Definition<I, O> = Omit<Operation<I, O>, 'kind'>;

/** An operation that writes: it runs in one transaction with its jobs and events. */
export const defineCommand = <I, O>(def: Definition<I, O>): Operation<I, O> => ({ ...def, kind: 'command' });

/** An operation that only reads. */
export const defineQuery = <I, O>(def: Definition<I, O>): Operation<I, O> => ({ ...def, kind: 'query' });
