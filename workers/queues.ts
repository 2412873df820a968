import type { QueueName } from '../domain/shared/queues.js';
import { anchorFiscalClosing } from './handlers/anchor-fiscal-closing.js';
import { closeFiscalChainJob } from './handlers/close-fiscal-chain.js';
import { closeFiscalPeriods } from './handlers/close-fiscal-periods.js';
import { deliverWebhook } from './handlers/deliver-webhook.js';
import { dispatchEvent } from './handlers/dispatch-event.js';
import { generateInvoiceDocumentsJob } from './handlers/generate-invoice-documents.js';
import { notifyWebhookDisabled } from './handlers/notify-webhook-disabled.js';
import { purgeIdempotencyKeys } from './handlers/purge-idempotency-keys.js';
import { sendPasswordReset } from './handlers/send-password-reset.js';
import { verifyCompanyKyc } from './handlers/verify-company-kyc.js';
import type { JobHandler } from './job-handler.js';

export interface WorkerSpec<Q extends QueueName> {
  handler: JobHandler<Q>;
  /** Jobs worked at once per worker process; tenant-grouped queues also cap each tenant. */
  concurrency?: number;
  /** Per-tenant cap within one process (pg-boss `localGroupConcurrency`), for tenant fairness. */
  perTenant?: number;
}

/** Which handler works each queue. Queue options (retries, dead letter) are in domain/shared/queues.ts. */
export const WORKERS: { [Q in QueueName]: WorkerSpec<Q> } = {
  'dispatch-event': { handler: dispatchEvent, perTenant: 2 },
  'purge-idempotency-keys': { handler: purgeIdempotencyKeys, concurrency: 1 },
  'verify-company-kyc': { handler: verifyCompanyKyc, perTenant: 2 },
  'send-password-reset': { handler: sendPasswordReset },
  // CPU-bound rendering: two at a time per process keeps the event loop free for the other queues.
  'generate-invoice-documents': { handler: generateInvoiceDocumentsJob, concurrency: 2, perTenant: 2 },
  // Mostly waiting on receivers (up to 15 s each): more at once, and one slow tenant cannot take them all.
  'deliver-webhook': { handler: deliverWebhook, concurrency: 10, perTenant: 4 },
  'notify-webhook-disabled': { handler: notifyWebhookDisabled, perTenant: 1 },
  'close-fiscal-periods': { handler: closeFiscalPeriods, concurrency: 1 },
  'close-fiscal-chain': { handler: closeFiscalChainJob, perTenant: 2 },
  'anchor-fiscal-closing': { handler: anchorFiscalClosing, perTenant: 2 },
};

/** Recurring jobs, registered by every worker process (pg-boss keeps one schedule per queue). */
export const SCHEDULES: { queue: QueueName; cron: string; tz: string }[] = [
  { queue: 'purge-idempotency-keys', cron: '17 * * * *', tz: 'UTC' },
  // Fiscal closings: at 00:00 UTC the previous day (and month, year) closes; the other hourly runs
  // only find work when a stopped worker missed midnight, or an anchor is still pending.
  { queue: 'close-fiscal-periods', cron: '0 * * * *', tz: 'UTC' },
];
