import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';

/** An anchor as stored (migrations/20261122003100_create_fiscal_anchors.ts). */
export interface AnchorRow {
  id: string;
  tenant_id: string;
  sub_tenant_id: string | null;
  environment: Environment;
  type: 'closing';
  entity_id: string;
  data_hash: string;
  status: 'pending' | 'anchored' | 'failed';
  tsa_name: string | null;
  tsa_url: string | null;
  anchor_reference: string | null;
  anchored_at: Date | null;
  policy: string | null;
  nonce: string | null;
  token: string | null;
  certificate_chain: string | null;
  ca_certificate: string | null;
  verified: boolean;
  failure_reason: string | null;
  created_at: Date;
  completed_at: Date | null;
}

/** How one call to the TSA went (fiscal_anchor_attempts). */
export type AttemptOutcome = 'granted' | 'waiting' | 'rejected' | 'invalid' | 'unavailable';

/** A pending anchor for a closing's hash, written in the closing's transaction. */
export async function insertPendingAnchor(
  tx: Knex,
  anchor: Pick<AnchorRow, 'tenant_id' | 'sub_tenant_id' | 'environment' | 'entity_id' | 'data_hash' | 'created_at'>,
): Promise<string> {
  const [row] = await tx('fiscal_anchors')
    .insert({ ...anchor, type: 'closing', status: 'pending' })
    .returning<{ id: string }[]>('id');
  return row.id;
}

export async function findAnchor(
  tx: Knex,
  tenantId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<AnchorRow | undefined> {
  const query = tx('fiscal_anchors').where({ tenant_id: tenantId, id }).first<AnchorRow | undefined>();
  if (options.forUpdate) query.forUpdate();
  return query;
}

/** The one change an anchor takes: pending to anchored or failed (the table's trigger allows no other). */
export async function completeAnchor(
  tx: Knex,
  id: string,
  completion: Partial<AnchorRow> & { status: 'anchored' | 'failed'; completed_at: Date },
): Promise<AnchorRow> {
  const [row] = await tx('fiscal_anchors')
    .where({ id, status: 'pending' })
    .update(completion)
    .returning<AnchorRow[]>('*');
  return row;
}

export async function recordAttempt(
  tx: Knex,
  attempt: {
    tenantId: string;
    anchorId: string;
    outcome: AttemptOutcome;
    detail: string | null;
    tsaUrl: string | null;
    at: Date;
  },
): Promise<void> {
  await tx('fiscal_anchor_attempts').insert({
    tenant_id: attempt.tenantId,
    anchor_id: attempt.anchorId,
    outcome: attempt.outcome,
    detail: attempt.detail?.slice(0, 1000) ?? null,
    tsa_url: attempt.tsaUrl,
    attempted_at: attempt.at,
  });
}
