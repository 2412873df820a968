import type { AutoReloadCharge, TopUpIdInput } from '../../../schemas/top-ups.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { findPaymentMethod, findTopUp, topUpView } from '../top-up-store.js';

/** What `run_auto_reload` charges: the pending auto-reload and the card saved by the last production checkout. */
export const prepareAutoReload = defineQuery<TopUpIdInput, AutoReloadCharge>({
  name: 'prepare_auto_reload',
  summary: 'Read a pending auto-reload and the saved card it is charged on (internal step of run_auto_reload).',
  input: 'TopUpIdInput',
  output: 'AutoReloadCharge',
  callers: ['system'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const row = await findTopUp(ctx.tx, tenantId, { id: input.top_up_id });
    if (row?.source !== 'auto_reload') {
      throw new AppError('NOT_FOUND', `No auto-reload ${input.top_up_id}.`, { retryable: false });
    }
    const method = await findPaymentMethod(ctx.tx, tenantId);
    return {
      top_up: await topUpView(ctx.tx, row),
      provider: method?.provider ?? null,
      customer_id: method?.customer_id ?? null,
      payment_method_id: method?.payment_method_id ?? null,
      source_payment_intent_id: method?.source_payment_intent_id ?? null,
    };
  },
});
