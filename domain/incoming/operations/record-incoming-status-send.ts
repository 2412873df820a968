import type { IncomingStatusSendInput, IncomingStatusToSend } from '../../../schemas/incoming-invoices.js';
import { defineCommand } from '../../shared/operation.js';
import { statusToSend } from './get-incoming-status-to-send.js';

export const recordIncomingStatusSend = defineCommand<IncomingStatusSendInput, IncomingStatusToSend>({
  name: 'record_incoming_status_send',
  summary:
    'Record an attempt to send a lifecycle status to the provider: sent (with its event id) or failed (with why). A status already sent stays sent.',
  input: 'IncomingStatusSendInput',
  output: 'IncomingStatusToSend',
  callers: ['system'],
  async run(input, ctx) {
    const current = await statusToSend(ctx.tx, input.event_id, { forUpdate: true });
    if (current.sent) return current;
    const sent = input.error === undefined;
    await ctx
      .tx('incoming_status_sends')
      .where({ event_id: input.event_id })
      .update({
        attempts: current.attempts + 1,
        last_error: sent ? null : input.error,
        ...(sent ? { sent_at: ctx.clock.now(), provider_event_id: input.provider_event_id ?? null } : {}),
      });
    return { ...current, sent, attempts: current.attempts + 1 };
  },
});
