import type { AttachCheckoutSessionInput, TopUp } from '../../../schemas/top-ups.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { tenantWideCaller } from '../../tenants/index.js';
import type { TopUpRow } from '../top-up-store.js';
import { topUpView } from '../top-up-store.js';

/** Step 2 of `create_top_up`: the session the provider opened, or the top-up cancelled when none could be. */
export const attachCheckoutSession = defineCommand<AttachCheckoutSessionInput, TopUp>({
  name: 'attach_checkout_session',
  summary: 'Record the Checkout Session opened for a pending top-up (internal step of create_top_up).',
  input: 'AttachCheckoutSessionInput',
  output: 'TopUp',
  callers: ['tenant'],
  async run(input, ctx) {
    const { tenantId } = tenantWideCaller(ctx.caller, 'attach_checkout_session');
    const change =
      input.checkout_session_id === null
        ? {
            status: 'canceled',
            failure_reason: 'the payment provider could not open a checkout',
            completed_at: ctx.clock.now(),
          }
        : { checkout_session_id: input.checkout_session_id };
    const [row] = await ctx
      .tx('top_ups')
      .where({ tenant_id: tenantId, id: input.top_up_id, status: 'pending' })
      .update(change)
      .returning<TopUpRow[]>('*');
    if (!row) throw new AppError('NOT_FOUND', `No pending top-up ${input.top_up_id}.`);
    return topUpView(ctx.tx, row);
  },
});
