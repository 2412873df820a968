import type { Knex } from 'knex';
import { type FiscalChain, fiscalScopeOf, type IntegrityScope, NO_SUB_TENANT } from '../ledger/index.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';

/**
 * The chains a report or an export covers: the key's tenant and environment, narrowed to one
 * sub-tenant (the key's own, or the one named: 404 when not the tenant's). `environment` may only
 * repeat the key's own: sandbox and production data never mix.
 */
export async function reportScope(
  ctx: OperationContext,
  input: { sub_tenant_id?: string; environment?: string },
): Promise<IntegrityScope> {
  const scope = await fiscalScopeOf(ctx.tx, ctx.caller, input.sub_tenant_id);
  if (input.environment && input.environment !== scope.environment) {
    throw AppError.validation({
      environment: [`must be ${scope.environment}: a key reads its own environment only`],
    });
  }
  return scope;
}

/**
 * The one chain a document is about: the sub-tenant's in scope, else the tenant's own (a scope
 * with no sub-tenant means every chain to a report, but the tenant's own chain to a document).
 */
export const oneChain = (scope: IntegrityScope): FiscalChain => ({
  tenantId: scope.tenantId,
  environment: scope.environment,
  subTenantId: scope.subTenantId,
});

/** A chain as its head row sees it: who it belongs to, its length and its last chain hash. */
export interface ChainHead {
  subTenantId: string | null;
  length: number;
  chainHash: string;
}

/**
 * The chains in scope that have entries, from `fiscal_chain_heads` (one row per chain, moved by
 * the ledger's insert trigger): the tenant's own first, then its sub-tenants'.
 */
export async function chainsInScope(tx: Knex, scope: IntegrityScope): Promise<ChainHead[]> {
  const rows = await tx('fiscal_chain_heads')
    .where({ tenant_id: scope.tenantId, environment: scope.environment })
    .modify((q) => {
      if (scope.subTenantId) q.andWhere({ chain_key: scope.subTenantId });
    })
    .orderByRaw('chain_key <> ?::uuid, chain_key', [NO_SUB_TENANT])
    .select<{ chain_key: string; sequence_number: string | number; chain_hash: string }[]>(
      'chain_key',
      'sequence_number',
      'chain_hash',
    );
  return rows.map((r) => ({
    subTenantId: r.chain_key === NO_SUB_TENANT ? null : r.chain_key,
    length: Number(r.sequence_number),
    chainHash: r.chain_hash,
  }));
}
