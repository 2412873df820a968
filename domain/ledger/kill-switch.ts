import type { Knex } from 'knex';
import { AppError } from '../shared/app-error.js';
import type { Environment } from '../shared/caller.js';
import { prepared } from '../shared/prepared-statements.js';

/** A kill switch as stored (migrations/20261122002900_create_fiscal_kill_switches.ts). */
export interface KillSwitchRow {
  tenant_id: string;
  environment: Environment;
  active: boolean;
  reason: string | null;
  activated_at: Date | null;
  activated_by: Record<string, string | null> | null;
  deactivated_at: Date | null;
  deactivated_by: Record<string, string | null> | null;
}

/** The spec's Kill switch shape: `{active, activated_at, activated_by, reason}`. */
export function toKillSwitchView(row: KillSwitchRow | undefined) {
  return {
    active: row?.active ?? false,
    activated_at: row?.active && row.activated_at ? row.activated_at.toISOString() : null,
    activated_by: row?.active ? (row.activated_by ?? null) : null,
    reason: row?.active ? row.reason : null,
  };
}
export type KillSwitchView = ReturnType<typeof toKillSwitchView>;

export async function findKillSwitch(
  tx: Knex,
  owner: { tenantId: string; environment: Environment },
  options: { forUpdate?: boolean } = {},
): Promise<KillSwitchRow | undefined> {
  const query = tx('fiscal_kill_switches').where({ tenant_id: owner.tenantId, environment: owner.environment });
  if (options.forUpdate) query.forUpdate();
  return query.first<KillSwitchRow | undefined>();
}

/**
 * Refuses invoice and credit-note creation while the owner's kill switch is active (503, nothing
 * written). The row is read with a share lock: an activation waits for creations in flight, and
 * every creation after it sees it.
 */
export async function assertKillSwitchOff(
  tx: Knex,
  owner: { tenantId: string; environment: Environment },
): Promise<void> {
  const row = await prepared(readingKillSwitch(tx, owner), 'kill_switch_off').first<
    { active: boolean; reason: string | null } | undefined
  >();
  refuseWhileKillSwitchActive(row);
}

/** The owner's kill switch row (`active`, `reason`), read with a share lock (`assertKillSwitchOff`). */
export const readingKillSwitch = (tx: Knex, owner: { tenantId: string; environment: Environment }) =>
  tx('fiscal_kill_switches')
    .where({ tenant_id: owner.tenantId, environment: owner.environment })
    .forShare()
    .select('active', 'reason');

/** 503 FISCAL_KILLSWITCH_ACTIVE when the kill switch read is active; nothing for none or an inactive one. */
export function refuseWhileKillSwitchActive(row: { active: boolean | null; reason: string | null } | undefined): void {
  if (!row?.active) return;
  throw new AppError(
    'FISCAL_KILLSWITCH_ACTIVE',
    `The fiscal kill switch is active (${row.reason ?? 'no reason given'}): invoices and credit notes cannot be created until it is deactivated.`,
    { retryable: false },
  );
}
