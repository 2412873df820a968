/** PostgreSQL `unique_violation` on the named constraint or index (SQLSTATE 23505). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/**
 * The database refused to change a locked invoice (`restrict_violation`, SQLSTATE 23001, raised by
 * the triggers of migrations/20261122001800_create_invoices.ts under `invoices_fiscal_fields_locked`).
 */
export function isFiscalLockViolation(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23001' && e.constraint === 'invoices_fiscal_fields_locked';
}

/** The database refused to change an issued or sent credit note (migrations/20261122004200_create_credit_notes.ts). */
export function isCreditNoteLockViolation(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23001' && e.constraint === 'credit_notes_immutable';
}

/**
 * PostgreSQL refused a value, not the moment: a data exception (class 22: a date that is none, a
 * numeric overflow, a NUL in text), a check violation, or an index entry too large (54000). Retrying
 * changes nothing; a transient failure (deadlock, lost connection) is not one of these.
 */
export function isDataRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code === '23514' || code === '54000');
}
