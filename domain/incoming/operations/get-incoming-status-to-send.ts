import type { Knex } from 'knex';
import type { IncomingStatusSendInput, IncomingStatusToSend } from '../../../schemas/incoming-invoices.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';

/** The status to send for a decision event, with the invoice's provider reference. */
export async function statusToSend(
  tx: Knex,
  eventId: string,
  options: { forUpdate?: boolean } = {},
): Promise<IncomingStatusToSend> {
  const query = tx('incoming_status_sends as s')
    .join('incoming_invoice_events as e', 'e.id', 's.event_id')
    .join('incoming_invoices as i', 'i.id', 's.incoming_invoice_id')
    .where('s.event_id', eventId)
    .first(
      's.sent_at',
      's.attempts',
      's.status_code',
      'e.reason_code',
      'e.reason_text',
      'i.payment_reference',
      'i.provider_account_id',
      'i.environment',
      'i.pdp_id',
    );
  if (options.forUpdate) query.forUpdate('s');
  const row = await query;
  if (!row) throw new AppError('NOT_FOUND', `No status to send for event ${eventId}.`, { retryable: false });
  return {
    sent: row.sent_at !== null,
    account_id: row.provider_account_id,
    environment: row.environment,
    pdp_id: row.pdp_id,
    status_code: row.status_code,
    reason_code: row.reason_code,
    reason: row.reason_text,
    // Paid is final, so the invoice's reference is the one this fr:211 decision recorded.
    payment_reference: row.status_code === 'fr:211' ? row.payment_reference : null,
    attempts: row.attempts,
  };
}

export const getIncomingStatusToSend = defineQuery<IncomingStatusSendInput, IncomingStatusToSend>({
  name: 'get_incoming_status_to_send',
  summary: 'The lifecycle status a decision on an incoming invoice sends to the provider, and whether it was sent.',
  input: 'IncomingStatusSendInput',
  output: 'IncomingStatusToSend',
  callers: ['system'],
  run: (input, ctx) => statusToSend(ctx.tx, input.event_id),
});
