import type { WebhookLog } from '../../schemas/webhook-logs.js';
import type { AttemptRow } from './delivery-store.js';

/** Schema `WebhookLog`: the type comes from the schema. */
export type WebhookLogView = WebhookLog;

/** One logged attempt (the origin's log record, plus the delivery id and the attempt number). */
export const toLogView = (row: AttemptRow): WebhookLogView => ({
  id: row.id,
  delivery_id: row.delivery_id,
  event_id: row.event_id,
  event: row.event_name,
  attempt: row.attempt,
  test: row.is_test,
  url: row.url,
  success: row.success,
  response_status: row.response_status,
  response_time_ms: row.response_time_ms,
  response_body: row.response_body,
  error_message: row.error_message,
  next_retry_at: row.next_attempt_at ? row.next_attempt_at.toISOString() : null,
  created_at: row.attempted_at.toISOString(),
});
