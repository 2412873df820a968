import type { Knex } from 'knex';
import {
  addDays,
  CLOSING_TYPES,
  type ClosingType,
  chainStartedAt,
  findKillSwitch,
  type IntegrityScope,
  lastClosing,
  lastPeriodEndedBy,
  nextPeriod,
  periodContaining,
  periodEndsAt,
  utcDay,
} from '../ledger/index.js';
import type { OperationContext } from '../shared/operation.js';
import { type ClosingRef, closingRef, latestOf } from './closing-ref.js';
import { recentIntegrity } from './recent-integrity.js';
import { chainsInScope } from './report-scope.js';

/**
 * The schedule closes a period at 00:00 UTC after it ends and again every hour until it is done;
 * a period only counts as missing once this much time has passed, so the report does not cry wolf
 * while the midnight run is at work.
 */
export const CLOSING_GRACE_MS = 60 * 60 * 1000;

export type WarningCode =
  | 'INTEGRITY_BROKEN'
  | 'DAILY_CLOSING_MISSING'
  | 'MONTHLY_CLOSING_MISSING'
  | 'YEARLY_CLOSING_MISSING'
  | 'ANCHOR_PENDING'
  | 'ANCHOR_FAILED'
  | 'KILL_SWITCH_ACTIVE';

export interface ComplianceWarning {
  code: WarningCode;
  message: string;
  sub_tenant_id: string | null;
  details?: Record<string, unknown>;
}

const chainName = (subTenantId: string | null) =>
  subTenantId ? `the chain of sub-tenant ${subTenantId}` : "the tenant's own chain";

/**
 * The spec's Compliance report for the chains in scope. Not compliant, with one warning each,
 * when: the integrity check finds a break; a period that is over (yesterday, last month, last year)
 * is not closed although the chain existed then; an anchor is pending longer than
 * FISCAL_ANCHOR_PENDING_HOURS or failed; the kill switch is active.
 */
export async function complianceReport(ctx: OperationContext, scope: IntegrityScope, verify: boolean) {
  const now = ctx.clock.now();
  const warnings: ComplianceWarning[] = [];
  // A check of every chain may stand for one sub-tenant's: only that chain's breaks count then.
  const integrity = await recentIntegrity(ctx, scope, {
    fresh: verify,
    onlyChain: scope.subTenantId ?? undefined,
  });
  if (!integrity.valid) {
    const first = integrity.first_broken;
    warnings.push({
      code: 'INTEGRITY_BROKEN',
      message: first
        ? `The integrity check of ${integrity.checked_at} found ${integrity.broken_links} break(s); the first at sequence ${first.sequence_number} of ${chainName(first.sub_tenant_id)} (${first.reason}). See GET /v1/tenant/fiscal/integrity.`
        : `The integrity check of ${integrity.checked_at} failed. See GET /v1/tenant/fiscal/integrity.`,
      sub_tenant_id: first?.sub_tenant_id ?? scope.subTenantId,
      details: { checked_at: integrity.checked_at, first_broken_sequence: first?.sequence_number ?? null },
    });
  }

  const chains = [];
  for (const head of await chainsInScope(ctx.tx, scope)) {
    const chain = { tenantId: scope.tenantId, environment: scope.environment, subTenantId: head.subTenantId };
    const startedAt = await chainStartedAt(ctx.tx, chain);
    const last: Record<ClosingType, ClosingRef | null> = { daily: null, monthly: null, yearly: null };
    for (const type of CLOSING_TYPES) {
      last[type] = closingRef(await lastClosing(ctx.tx, chain, type));
      const missing = startedAt ? missingClosings(type, startedAt, last[type], now) : null;
      if (missing) warnings.push({ ...missing, sub_tenant_id: head.subTenantId });
    }
    chains.push({
      sub_tenant_id: head.subTenantId,
      chain_length: head.length,
      last_chain_hash: head.chainHash,
      started_at: startedAt?.toISOString() ?? null,
      last_daily_closing: last.daily,
      last_monthly_closing: last.monthly,
      last_yearly_closing: last.yearly,
    });
  }

  const limitHours = ctx.deps.config.fiscalAnchorPendingHours;
  const anchors = await anchorCounts(ctx.tx, scope, new Date(now.getTime() - limitHours * 3_600_000));
  if (anchors.overdue > 0) {
    warnings.push({
      code: 'ANCHOR_PENDING',
      message: `${anchors.overdue} closing anchor(s) have waited more than ${limitHours} h for the time-stamp authority (the oldest since ${anchors.oldestOverdue}): check TSA_URL and the worker.`,
      sub_tenant_id: scope.subTenantId,
      details: { count: anchors.overdue, oldest_created_at: anchors.oldestOverdue },
    });
  }
  if (anchors.failed > 0) {
    warnings.push({
      code: 'ANCHOR_FAILED',
      message: `${anchors.failed} closing anchor(s) failed: the authority refused the request or its token did not verify (the first: ${anchors.firstFailed}). See GET /v1/tenant/fiscal/anchors?status=failed.`,
      sub_tenant_id: scope.subTenantId,
      details: { count: anchors.failed, first_anchor_id: anchors.firstFailed },
    });
  }
  const killSwitch = await findKillSwitch(ctx.tx, scope);
  if (killSwitch?.active) {
    warnings.push({
      code: 'KILL_SWITCH_ACTIVE',
      message: `The fiscal kill switch is active since ${killSwitch.activated_at?.toISOString()} (${killSwitch.reason}): invoice and credit-note creation is stopped.`,
      sub_tenant_id: null,
      details: { activated_at: killSwitch.activated_at?.toISOString() ?? null, reason: killSwitch.reason },
    });
  }

  return {
    compliant: warnings.length === 0,
    last_integrity_check: integrity.checked_at,
    integrity_valid: integrity.valid,
    last_daily_closing: latestOf(chains.map((c) => c.last_daily_closing)),
    last_monthly_closing: latestOf(chains.map((c) => c.last_monthly_closing)),
    kill_switch_active: killSwitch?.active ?? false,
    chain_length: chains.reduce((sum, c) => sum + c.chain_length, 0),
    warnings,
    environment: scope.environment,
    sub_tenant_id: scope.subTenantId,
    checked_at: now.toISOString(),
    integrity_check: {
      checked_at: integrity.checked_at,
      ran_now: integrity.ran_now,
      valid: integrity.valid,
      chains_checked: integrity.chains_checked,
      entries_checked: integrity.entries_checked,
      broken_links: integrity.broken_links,
      first_broken: integrity.first_broken,
    },
    anchors: {
      pending: anchors.pending,
      overdue: anchors.overdue,
      failed: anchors.failed,
      pending_limit_hours: limitHours,
    },
    chains,
  };
}
export type ComplianceReport = Awaited<ReturnType<typeof complianceReport>>;

/**
 * The closings of a type a chain lacks: the last period over (less the grace) must be closed once
 * the chain existed before it ended. Closings of a type never skip a period (close-chain.ts), so
 * everything after the chain's last one is missing.
 */
function missingClosings(
  type: ClosingType,
  startedAt: Date,
  last: ClosingRef | null,
  now: Date,
): Omit<ComplianceWarning, 'sub_tenant_id'> | null {
  const yesterday = addDays(utcDay(new Date(now.getTime() - CLOSING_GRACE_MS)), -1);
  const due = lastPeriodEndedBy(type, yesterday);
  if (startedAt >= periodEndsAt(due)) return null;
  if (last && last.date >= due.start) return null;
  const from = last
    ? nextPeriod(periodContaining(type, last.date)).start
    : periodContaining(type, utcDay(startedAt)).start;
  let periods = 0;
  for (let p = periodContaining(type, from); p.start <= due.start; p = nextPeriod(p)) periods++;
  const code = `${type.toUpperCase()}_CLOSING_MISSING` as WarningCode;
  const what = type === 'daily' ? 'day' : type === 'monthly' ? 'month' : 'year';
  return {
    code,
    message: `${periods} ${what}(s) of this chain are not closed, from the ${what} starting ${from} to the one starting ${due.start}: the ${type} closing did not run. Check the worker${type === 'daily' ? ', or close the days by hand with POST /v1/tenant/fiscal/closings/daily' : ''}.`,
    details: { type, from, to: due.start, periods, last_closing: last?.date ?? null },
  };
}

/** Pending anchors (and those older than `overdueBefore`) and failed ones, in scope. */
async function anchorCounts(tx: Knex, scope: IntegrityScope, overdueBefore: Date) {
  const rows = await tx('fiscal_anchors')
    .where({ tenant_id: scope.tenantId, environment: scope.environment })
    .whereIn('status', ['pending', 'failed'])
    .modify((q) => {
      if (scope.subTenantId) q.andWhere({ sub_tenant_id: scope.subTenantId });
    })
    .orderBy('created_at')
    .select<{ id: string; status: string; created_at: Date }[]>('id', 'status', 'created_at');
  const pending = rows.filter((r) => r.status === 'pending');
  const overdue = pending.filter((r) => r.created_at < overdueBefore);
  const failed = rows.filter((r) => r.status === 'failed');
  return {
    pending: pending.length,
    overdue: overdue.length,
    oldestOverdue: overdue[0]?.created_at.toISOString() ?? null,
    failed: failed.length,
    firstFailed: failed[0]?.id ?? null,
  };
}
