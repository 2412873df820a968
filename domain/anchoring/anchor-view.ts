import type { Knex } from 'knex';
import type { AnchorRow } from './anchor-store.js';

export type AnchorListRow = AnchorRow & { attempts: number; last_error: string | null };

/** The spec's Anchor, with what anyone needs to check it: the token, its certificates, the TSA. */
export function toAnchorView(row: AnchorListRow) {
  return {
    id: row.id,
    type: row.type,
    entity_id: row.entity_id,
    data_hash: row.data_hash,
    anchor_reference: row.anchor_reference,
    anchored_at: row.anchored_at?.toISOString() ?? null,
    verified: row.verified,
    status: row.status,
    tsa_name: row.tsa_name,
    tsa_url: row.tsa_url,
    policy: row.policy,
    token: row.token,
    certificate_chain: row.certificate_chain,
    sub_tenant_id: row.sub_tenant_id,
    environment: row.environment,
    attempts: Number(row.attempts),
    last_error: row.status === 'anchored' ? null : (row.failure_reason ?? row.last_error),
    created_at: row.created_at.toISOString(),
  };
}
export type AnchorView = ReturnType<typeof toAnchorView>;

/** Anchors with their attempt count and the last attempt's detail. */
export function anchorsWithAttempts(tx: Knex) {
  return tx('fiscal_anchors as a').select(
    'a.*',
    tx.raw('(select count(*) from fiscal_anchor_attempts t where t.anchor_id = a.id)::int as attempts'),
    tx.raw(
      "(select t.detail from fiscal_anchor_attempts t where t.anchor_id = a.id and t.outcome <> 'granted' order by t.attempted_at desc, t.id desc limit 1) as last_error",
    ),
  );
}
