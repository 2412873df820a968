import type { FindTopUpInput, TopUp } from '../../../schemas/top-ups.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { findTopUp, topUpView } from '../top-up-store.js';

/** A top-up of the caller's tenant; another tenant's, or an unknown id, is 404. */
export const findTopUpOperation = defineQuery<FindTopUpInput, TopUp>({
  name: 'find_top_up',
  summary:
    'Find a top-up of the calling tenant by its Checkout Session, PaymentIntent or id (internal step of confirm_top_up).',
  input: 'FindTopUpInput',
  output: 'TopUp',
  callers: ['tenant', 'system'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId;
    const ref = input.payment_ref;
    const by = input.top_up_id
      ? { id: input.top_up_id }
      : ref?.startsWith('cs_')
        ? { checkout_session_id: ref }
        : ref
          ? { payment_intent_id: ref }
          : null;
    const row = tenantId && by ? await findTopUp(ctx.tx, tenantId, by) : undefined;
    if (!row)
      throw new AppError('NOT_FOUND', `No top-up of this account matches ${ref ?? input.top_up_id ?? 'nothing'}.`);
    return topUpView(ctx.tx, row);
  },
});
