import { trustedCaPems } from '../anchoring/index.js';
import { checkIntegrity, type IntegrityScope } from '../ledger/index.js';
import type { OperationContext } from '../shared/operation.js';

/** A recorded check younger than this stands for the chains' state; an older one is run again. */
export const INTEGRITY_MAX_AGE_MS = 24 * 60 * 60 * 1000;

interface BrokenLink {
  sequence_number: number;
  sub_tenant_id: string | null;
  reason: string;
}

/** What an integrity check says about the chains a report is about. */
export interface IntegrityVerdict {
  valid: boolean;
  checked_at: string;
  /** True when the check was run (and recorded) for this report. */
  ran_now: boolean;
  chains_checked: number;
  entries_checked: number;
  broken_links: number;
  first_broken: BrokenLink | null;
}

/**
 * The integrity of the chains in `scope`: the latest whole-chain check recorded for them (a check
 * of every chain of the tenant covers one sub-tenant's too) when it is younger than 24 hours, else
 * a check run now, which is recorded like any other. `fresh` always runs one. `onlyChain` narrows
 * the verdict to one chain (null: the tenant's own) when the check walked more.
 *
 * Walking a chain costs a read of every entry, so reports do not do it on every call: an
 * alteration made after the check is caught by the next one, by a `fresh` report, or by
 * GET /fiscal/integrity.
 */
export async function recentIntegrity(
  ctx: OperationContext,
  scope: IntegrityScope,
  options: { fresh?: boolean; onlyChain?: string | null } = {},
): Promise<IntegrityVerdict> {
  const now = ctx.clock.now();
  const mine = (links: readonly BrokenLink[]) =>
    options.onlyChain === undefined ? links : links.filter((l) => l.sub_tenant_id === options.onlyChain);
  if (!options.fresh) {
    const recorded = await ctx
      .tx('fiscal_integrity_checks')
      .where({ tenant_id: scope.tenantId, environment: scope.environment })
      .whereNull('scope_date')
      .andWhere((q) => {
        q.whereNull('sub_tenant_id');
        if (scope.subTenantId) q.orWhere('sub_tenant_id', scope.subTenantId);
      })
      .andWhere('checked_at', '>', new Date(now.getTime() - INTEGRITY_MAX_AGE_MS))
      .andWhere('checked_at', '<=', now)
      .orderBy('checked_at', 'desc')
      .first<
        | {
            chains_checked: number;
            entries_checked: string | number;
            broken_links: BrokenLink[] | string;
            valid: boolean;
            checked_at: Date;
          }
        | undefined
      >('chains_checked', 'entries_checked', 'broken_links', 'valid', 'checked_at');
    if (recorded) {
      const all = typeof recorded.broken_links === 'string' ? JSON.parse(recorded.broken_links) : recorded.broken_links;
      const links = mine(all as BrokenLink[]);
      // A recorded failure whose breaks were cut off (the first 1000 are kept) still counts as one.
      const broken = links.length > 0 || (options.onlyChain === undefined && !recorded.valid);
      return verdict(!broken, recorded.checked_at.toISOString(), false, recorded, links);
    }
  }
  const report = await checkIntegrity(ctx.tx, scope, now, await trustedCaPems(ctx.tx, ctx.deps.config));
  const links = mine(report.broken_links);
  return verdict(links.length === 0, report.checked_at, true, report, links);
}

function verdict(
  valid: boolean,
  checkedAt: string,
  ranNow: boolean,
  counts: { chains_checked: number; entries_checked: string | number },
  links: readonly BrokenLink[],
): IntegrityVerdict {
  const first = links[0];
  return {
    valid,
    checked_at: checkedAt,
    ran_now: ranNow,
    chains_checked: Number(counts.chains_checked),
    entries_checked: Number(counts.entries_checked),
    broken_links: links.length,
    first_broken: first
      ? { sequence_number: first.sequence_number, sub_tenant_id: first.sub_tenant_id, reason: first.reason }
      : null,
  };
}
