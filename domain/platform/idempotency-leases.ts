import type { Deps } from '../shared/deps.js';
import { IDEMPOTENCY_LOCK_MS, renewIdempotencyClaims } from './idempotency-store.js';

/** Renewed four times per lock period: a late or failed renewal still leaves three more chances. */
export const IDEMPOTENCY_RENEW_MS = IDEMPOTENCY_LOCK_MS / 4;

/**
 * The Idempotency-Key claims this process's requests hold. While any is held, one timer renews
 * them all (one statement per tenant per period), so a request running past the lock period keeps
 * its key; a claim goes stale, and may be taken over, only when its process stopped renewing it.
 */
export class IdempotencyLeases {
  /** Claim id → the tenant whose rows hold it (null: an anonymous caller's key). */
  private readonly held = new Map<string, string | null>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly deps: Pick<Deps, 'db' | 'clock' | 'log'>) {}

  hold(id: string, tenantId: string | null): void {
    this.held.set(id, tenantId);
    this.timer ??= setInterval(() => void this.renew(), IDEMPOTENCY_RENEW_MS).unref();
  }

  drop(id: string): void {
    this.held.delete(id);
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Renews every claim held now (the timer's work; tests call it to be exact). */
  async renew(): Promise<void> {
    const byTenant = new Map<string | null, string[]>();
    for (const [id, tenantId] of this.held) byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), id]);
    const now = this.deps.clock.now();
    await Promise.all(
      [...byTenant].map(([tenantId, ids]) =>
        renewIdempotencyClaims(this.deps.db, tenantId, ids, now).catch((err: unknown) =>
          this.deps.log.warn({ err, claims: ids.length }, 'idempotency claims not renewed'),
        ),
      ),
    );
  }
}

const perProcess = new WeakMap<object, IdempotencyLeases>();

/** The leases of a process's dependencies (one per web process). */
export function idempotencyLeasesOf(deps: Pick<Deps, 'db' | 'clock' | 'log'>): IdempotencyLeases {
  let leases = perProcess.get(deps);
  if (!leases) {
    leases = new IdempotencyLeases(deps);
    perProcess.set(deps, leases);
  }
  return leases;
}
