import type { Knex } from 'knex';
import { AppError } from './app-error.js';

export type CommitOutcome = 'committed' | 'aborted' | 'unknown';

/** How long to wait for a transaction whose backend has not finished yet (its connection broke first). */
const IN_PROGRESS_CHECKS = 10;
const CHECK_INTERVAL_MS = 100;

/**
 * Whether a transaction committed, asked on another connection after its COMMIT got no answer (the
 * connection was lost while committing): PostgreSQL's commit log knows, by the transaction id taken
 * inside it (`txid_current()`). `unknown` when the database cannot say yet, or at all: it stays in
 * progress past the checks, its id is too old to look up, or the database cannot be reached.
 */
export async function commitOutcome(
  db: Knex,
  xid: string,
  checks = IN_PROGRESS_CHECKS,
  intervalMs = CHECK_INTERVAL_MS,
): Promise<CommitOutcome> {
  for (let check = 1; check <= checks; check++) {
    try {
      const { rows } = await db.raw<{ rows: { status: string | null }[] }>('select txid_status(?::bigint) as status', [
        xid,
      ]);
      const status = rows[0]?.status ?? null;
      if (status === 'committed' || status === 'aborted') return status;
      if (status === null) return 'unknown';
    } catch {
      // the database is unreachable as well: try again, then give up
    }
    if (check < checks) await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return 'unknown';
}

/**
 * A write whose commit cannot be confirmed nor denied. It is not run again here (it may be in the
 * database already: a second invoice, a second debit); the client checks before retrying, and a
 * job's retry finds the work done or not, as after any crash.
 */
export class CommitOutcomeUnknown extends AppError {
  constructor(cause: unknown) {
    super(
      'SERVICE_UNAVAILABLE',
      'The connection to the database was lost while saving, and whether the change was saved cannot be told yet. Check (for example by listing or by your external_id) before retrying.',
      { cause, body: { commit_outcome: 'unknown' } },
    );
  }
}

export const isCommitOutcomeUnknown = (err: unknown): err is CommitOutcomeUnknown =>
  err instanceof CommitOutcomeUnknown;
