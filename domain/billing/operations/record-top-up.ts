import type { RecordTopUpInput, TopUp } from '../../../schemas/top-ups.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../../tenants/index.js';
import { toMoney } from '../money.js';
import { PRICE_CURRENCY } from '../pricing.js';
import type { TopUpRow } from '../top-up-store.js';
import { topUpView } from '../top-up-store.js';

/** Step 1 of `create_top_up`: the pending top-up, written before the provider is called. */
export const recordTopUp = defineCommand<RecordTopUpInput, TopUp>({
  name: 'record_top_up',
  summary: 'Record a pending checkout top-up of the calling tenant (internal step of create_top_up).',
  input: 'RecordTopUpInput',
  output: 'TopUp',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId, environment } = tenantWideCaller(ctx.caller, 'record_top_up');
    const [row] = await ctx
      .tx('top_ups')
      .insert({
        tenant_id: tenantId,
        environment,
        source: 'checkout',
        provider: input.provider,
        amount: toMoney(input.amount).toFixed(2),
        currency: PRICE_CURRENCY,
        status: 'pending',
        created_at: ctx.clock.now(),
      })
      .returning<TopUpRow[]>('*');
    return topUpView(ctx.tx, row);
  },
});
