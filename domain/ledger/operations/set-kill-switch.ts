import type { ActivateKillSwitchInput, DeactivateKillSwitchInput } from '../../../schemas/fiscal.js';
import { actorOf, appendAuditEntry } from '../../audit/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { fiscalScopeOf } from '../fiscal-scope.js';
import { findKillSwitch, type KillSwitchRow, type KillSwitchView, toKillSwitchView } from '../kill-switch.js';

/**
 * Turns the kill switch on or off for the key's environment, recording the change in the audit
 * trail (entity `fiscal_kill_switch`, one chain per tenant). The row is locked, so concurrent
 * changes take turns and creations in flight finish first (they hold a share lock on it).
 */
async function setKillSwitch(ctx: OperationContext, active: boolean, reason: string | null): Promise<KillSwitchView> {
  const scope = await fiscalScopeOf(ctx.tx, ctx.caller, undefined);
  if (scope.subTenantId) {
    throw new AppError(
      'FORBIDDEN',
      "The kill switch is the tenant's: use the tenant's own key, not one bound to a sub-tenant.",
    );
  }
  const current = await findKillSwitch(ctx.tx, scope, { forUpdate: true });
  if ((current?.active ?? false) === active) {
    throw new AppError('INVALID_STATE', `The fiscal kill switch is already ${active ? 'active' : 'inactive'}.`, {
      body: { active },
    });
  }
  const now = ctx.clock.now();
  const actor = actorOf(ctx.caller);
  const change = active
    ? { active, reason, activated_at: now, activated_by: JSON.stringify(actor), updated_at: now }
    : { active, deactivated_at: now, deactivated_by: JSON.stringify(actor), updated_at: now };
  const [row] = await ctx
    .tx('fiscal_kill_switches')
    .insert({ tenant_id: scope.tenantId, environment: scope.environment, ...change })
    .onConflict(['tenant_id', 'environment'])
    .merge(change)
    .returning<KillSwitchRow[]>('*');
  await appendAuditEntry(ctx.tx, {
    tenantId: scope.tenantId,
    environment: scope.environment,
    entityType: 'fiscal_kill_switch',
    entityId: scope.tenantId,
    action: active ? 'fiscal.kill_switch.activated' : 'fiscal.kill_switch.deactivated',
    details: { environment: scope.environment, reason },
    actorIp: ctx.caller.ip ?? null,
    actor,
    now,
  });
  return toKillSwitchView(row);
}

export const activateKillSwitch = defineCommand<ActivateKillSwitchInput, KillSwitchView>({
  name: 'activate_kill_switch',
  summary:
    'Stop all invoice and credit-note creation in the key’s environment at once (503 FISCAL_KILLSWITCH_ACTIVE) until deactivated. The reason is kept in the audit trail.',
  input: 'ActivateKillSwitchInput',
  output: 'KillSwitchStatus',
  callers: ['tenant'],
  scope: 'fiscal:admin',
  run: (input, ctx) => setKillSwitch(ctx, true, input.reason.trim()),
});

export const deactivateKillSwitch = defineCommand<DeactivateKillSwitchInput, KillSwitchView>({
  name: 'deactivate_kill_switch',
  summary: 'Allow invoice and credit-note creation again in the key’s environment; recorded in the audit trail.',
  input: 'DeactivateKillSwitchInput',
  output: 'KillSwitchStatus',
  callers: ['tenant'],
  scope: 'fiscal:admin',
  run: (input, ctx) => setKillSwitch(ctx, false, input.reason?.trim() ?? null),
});
