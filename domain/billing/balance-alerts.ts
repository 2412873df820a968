import type { OperationContext } from '../shared/operation.js';
import type { AppliedMovement } from './balance-store.js';
import { Decimal, moneyToJson } from './money.js';
import { paymentProviderKindFor } from './payment-providers.js';
import { findPaymentMethod } from './top-up-store.js';

/**
 * What a debit sets off, in the debit's transaction (ADR 0050). A threshold is crossed when the
 * balance was at or above it before the debit and is below it after: `balance.low` and
 * `balance.critical` (webhook event and mail) fire once per crossing, and a credit that lifts the
 * balance back above re-arms them, with no state kept. Crossing `auto_reload_threshold` with
 * auto-reload on records a pending auto-reload and queues its charge; the partial unique index
 * `top_ups_one_reload_in_flight` keeps it to one in flight per tenant (a second crossing while one
 * runs inserts nothing). Nothing here runs unless a threshold was crossed, so a debit costs no
 * extra statement.
 */
export async function afterDebit(
  ctx: OperationContext,
  tenantId: string,
  debit: Decimal,
  applied: AppliedMovement,
): Promise<void> {
  const after = new Decimal(applied.balanceAfter);
  const before = after.plus(debit);
  const crossed = (threshold: string | null) => threshold !== null && before.gte(threshold) && after.lt(threshold);
  const { settings } = applied;

  for (const [level, threshold] of [
    ['low', settings.lowThreshold],
    ['critical', settings.criticalThreshold],
  ] as const) {
    if (!crossed(threshold)) continue;
    await ctx.events.emit(
      level === 'low' ? 'balance.low' : 'balance.critical',
      {
        id: applied.transactionId,
        amount: moneyToJson(after),
        currency: applied.currency,
        threshold: moneyToJson(threshold),
      },
      { tenantId, environment: 'production' },
    );
    await ctx.jobs.send(
      'send-balance-alert',
      { tenantId, kind: level, balance: after.toFixed(2), threshold: new Decimal(threshold).toFixed(2), reason: null },
      { group: { id: tenantId } },
    );
  }

  if (settings.autoReloadEnabled && settings.autoReloadAmount && crossed(settings.autoReloadThreshold)) {
    const method = await findPaymentMethod(ctx.tx, tenantId);
    const provider = method?.provider ?? paymentProviderKindFor(ctx.deps.config, 'production') ?? 'stripe';
    const inserted = await ctx
      .tx('top_ups')
      .insert({
        tenant_id: tenantId,
        environment: 'production',
        source: 'auto_reload',
        provider,
        amount: settings.autoReloadAmount,
        currency: applied.currency,
        status: 'pending',
        created_at: ctx.clock.now(),
      })
      .onConflict(ctx.tx.raw("(tenant_id) where source = 'auto_reload' and status = 'pending'"))
      .ignore()
      .returning<{ id: string }[]>('id');
    if (inserted.length > 0) {
      await ctx.jobs.send(
        'auto-reload-balance',
        { tenantId, topUpId: inserted[0].id },
        { group: { id: tenantId }, singletonKey: inserted[0].id },
      );
    }
  }
}
