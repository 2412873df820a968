import type { Knex } from 'knex';
import type { KybStatus } from '../../schemas/kyb.js';
import type { OperationContext } from '../shared/operation.js';

export type KybStatusValue = KybStatus['status'];

/**
 * The KYB state machine of the specification ("KYB status"; ADR 0064 for what it leaves open):
 *
 * | From | Trigger | To |
 * | pending, rejected | documents uploaded | documents_submitted |
 * | documents_submitted | an admin's first review | under_review |
 * | under_review | a document rejected | rejected |
 * | under_review | every required type approved | verified |
 *
 * An upload while documents_submitted or under_review joins the current review. Deleting the last
 * document of a tenant waiting for review takes it back to pending (nothing is left to review).
 * Nothing leaves `verified`.
 */
export const statusAfterUpload = (status: KybStatusValue): KybStatusValue =>
  status === 'pending' || status === 'rejected' ? 'documents_submitted' : status;

/** The statuses a review passes through, in order (empty: it changes nothing). */
export function statusesAfterReview(
  status: KybStatusValue,
  decision: 'approve' | 'reject',
  requiredApproved: boolean,
): KybStatusValue[] {
  if (status !== 'documents_submitted' && status !== 'under_review') return [];
  const path: KybStatusValue[] = status === 'documents_submitted' ? ['under_review'] : [];
  if (decision === 'reject') path.push('rejected');
  else if (requiredApproved) path.push('verified');
  return path;
}

export const statusAfterDelete = (status: KybStatusValue, remaining: number): KybStatusValue =>
  remaining === 0 && (status === 'documents_submitted' || status === 'under_review') ? 'pending' : status;

/** A tenant's KYB columns. */
export interface TenantKybRow {
  id: string;
  name: string;
  kyb_status: KybStatusValue;
  kyb_verified_at: Date | null;
  kyb_rejection_reason: string | null;
}

/** The tenant's KYB, locked for the rest of the transaction (uploads, reviews and deletions take turns). */
export const lockTenantKyb = (tx: Knex, tenantId: string): Promise<TenantKybRow | undefined> =>
  tx('tenants')
    .where({ id: tenantId })
    .forUpdate()
    .first<TenantKybRow | undefined>(['id', 'name', 'kyb_status', 'kyb_verified_at', 'kyb_rejection_reason']);

/**
 * Moves a tenant's KYB through `path`: one `kyb.status_changed` event per step, in both environments
 * (a tenant under review listens with its sandbox key; once verified, with either), and one mail
 * with where it ends. `rejectionReason` is kept while rejected and cleared on any other status.
 * Runs in the caller's transaction, after `lockTenantKyb`. Returns the tenant's KYB columns after.
 */
export async function moveKyb(
  ctx: OperationContext,
  tenant: TenantKybRow,
  path: readonly KybStatusValue[],
  rejectionReason: string | null = null,
): Promise<TenantKybRow> {
  if (path.length === 0) return tenant;
  const now = ctx.clock.now();
  const status = path[path.length - 1];
  const after: TenantKybRow = {
    ...tenant,
    kyb_status: status,
    kyb_verified_at: status === 'verified' ? now : tenant.kyb_verified_at,
    kyb_rejection_reason: status === 'rejected' ? rejectionReason : null,
  };
  await ctx
    .tx('tenants')
    .where({ id: tenant.id })
    .update({
      kyb_status: after.kyb_status,
      kyb_verified_at: after.kyb_verified_at,
      kyb_rejection_reason: after.kyb_rejection_reason,
      ...(status === 'documents_submitted' ? { kyb_submitted_at: now } : {}),
      updated_at: now,
    });
  let previous = tenant.kyb_status;
  const events = path.flatMap((step) => {
    const data = {
      id: tenant.id,
      status: step,
      previous_status: previous,
      verified_at: step === 'verified' ? now.toISOString() : null,
      rejection_reason: step === 'rejected' ? rejectionReason : null,
      changed_at: now.toISOString(),
    };
    previous = step;
    return (['sandbox', 'production'] as const).map((environment) => ({
      name: 'kyb.status_changed' as const,
      data,
      options: { tenantId: tenant.id, environment },
    }));
  });
  await ctx.events.emitMany(events);
  await ctx.jobs.send(
    'send-kyb-status-mail',
    { tenantId: tenant.id, status, rejectionReason: after.kyb_rejection_reason },
    { group: { id: tenant.id } },
  );
  return after;
}
