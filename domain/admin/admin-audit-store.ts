import type { Knex } from 'knex';
import type { Caller } from '../shared/caller.js';

/** One admin action, as the admin audit log keeps it (migrations/20261127070000_create_admin_audit_log.ts). */
export interface AdminAction {
  /** `user.disabled`, `user.enabled`, `company.disabled`, `company.enabled`, `balance.credited`, `balance.debited`, `sub_tenant.deleted`. */
  action: string;
  targetType: 'user' | 'company' | 'sub_tenant' | 'tenant';
  targetId: string;
  /** The tenant the target belongs to. */
  targetTenantId: string | null;
  details: Record<string, unknown>;
}

/**
 * Appends the action to the admin audit log, in the action's own transaction: the row and the
 * change it records commit together or not at all. The table refuses UPDATE and DELETE.
 */
export async function recordAdminAction(tx: Knex, caller: Caller, entry: AdminAction): Promise<void> {
  if (!caller.userId) throw new Error('an admin action needs the admin user that made it');
  await tx('admin_audit_log').insert({
    admin_user_id: caller.userId,
    action: entry.action,
    target_type: entry.targetType,
    target_id: entry.targetId,
    target_tenant_id: entry.targetTenantId,
    details: JSON.stringify(entry.details),
    ip: caller.ip ?? null,
    request_id: caller.requestId ?? null,
  });
}
