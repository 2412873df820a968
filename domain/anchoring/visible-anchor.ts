import { fiscalScopeOf } from '../ledger/index.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import type { AnchorRow } from './anchor-store.js';

/** An anchor of the caller's environment (and sub-tenant, for a key bound to one); 404 otherwise. */
export async function visibleAnchor(ctx: OperationContext, id: string): Promise<AnchorRow> {
  const scope = await fiscalScopeOf(ctx.tx, ctx.caller, undefined);
  const anchor = await ctx
    .tx('fiscal_anchors')
    .where({ id, tenant_id: scope.tenantId, environment: scope.environment })
    .modify((q) => {
      if (scope.subTenantId) q.andWhere({ sub_tenant_id: scope.subTenantId });
    })
    .first<AnchorRow | undefined>();
  if (!anchor) throw new AppError('NOT_FOUND', `No anchor ${id}. List them with GET /v1/tenant/fiscal/anchors.`);
  return anchor;
}

export const notYet = (anchor: AnchorRow) =>
  new AppError(
    'INVALID_STATE',
    anchor.status === 'pending'
      ? 'This anchor is still pending: the time-stamp authority has not answered yet. Retry later.'
      : `This anchor failed (${anchor.failure_reason}); it has no verified time-stamp.`,
    { body: { status: anchor.status } },
  );
