import type { QueueName } from '../domain/shared/queues.js';
import { anchorFiscalClosing } from './handlers/anchor-fiscal-closing.js';
import { closeFiscalChainJob } from './handlers/close-fiscal-chain.js';
import { closeFiscalPeriods } from './handlers/close-fiscal-periods.js';
import { deliverWebhook } from './handlers/deliver-webhook.js';
import { dispatchEvent } from './handlers/dispatch-event.js';
import { generateCreditNoteDocumentsJob } from './handlers/generate-credit-note-documents.js';
import { generateInvoiceDocumentsJob } from './handlers/generate-invoice-documents.js';
import { notifyWebhookDisabled } from './handlers/notify-webhook-disabled.js';
import { purgeIdempotencyKeys } from './handlers/purge-idempotency-keys.js';
import { scheduleIncomingSyncsJob } from './handlers/schedule-incoming-syncs.js';
import { sendEmailVerification } from './handlers/send-email-verification.js';
import { sendIncomingStatus } from './handlers/send-incoming-status.js';
import { sendInvoiceStatus } from './handlers/send-invoice-status.js';
import { sendPasswordReset } from './handlers/send-password-reset.js';
import { syncAllProviderEvents } from './handlers/sync-all-provider-events.js';
import { syncIncomingInvoicesJob } from './handlers/sync-incoming-invoices.js';
import { syncProviderEvents } from './handlers/sync-provider-events.js';
import { transmitInvoice } from './handlers/transmit-invoice.js';
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
  'send-email-verification': { handler: sendEmailVerification },
  // CPU-bound rendering: two at a time per process keeps the event loop free for the other queues.
  'generate-invoice-documents': { handler: generateInvoiceDocumentsJob, concurrency: 2, perTenant: 2 },
  'generate-credit-note-documents': { handler: generateCreditNoteDocumentsJob, concurrency: 2, perTenant: 2 },
  // Mostly waiting on receivers (up to 15 s each): more at once, and one slow tenant cannot take them all.
  'deliver-webhook': { handler: deliverWebhook, concurrency: 10, perTenant: 4 },
  'notify-webhook-disabled': { handler: notifyWebhookDisabled, perTenant: 1 },
  'close-fiscal-periods': { handler: closeFiscalPeriods, concurrency: 1 },
  'close-fiscal-chain': { handler: closeFiscalChainJob, perTenant: 2 },
  'anchor-fiscal-closing': { handler: anchorFiscalClosing, perTenant: 2 },
  'send-incoming-status': { handler: sendIncomingStatus, perTenant: 2 },
  'sync-incoming-invoices': { handler: syncIncomingInvoicesJob, concurrency: 2, perTenant: 1 },
  'schedule-incoming-syncs': { handler: scheduleIncomingSyncsJob, concurrency: 1 },
  // Mostly waiting on the provider: several at once, and one busy tenant cannot take them all.
  'transmit-invoice': { handler: transmitInvoice, concurrency: 8, perTenant: 3 },
  'sync-provider-events': { handler: syncProviderEvents, concurrency: 4, perTenant: 2 },
  'sync-all-provider-events': { handler: syncAllProviderEvents, concurrency: 1 },
  'send-invoice-status': { handler: sendInvoiceStatus, perTenant: 2 },
};

/** Recurring jobs, registered by every worker process (pg-boss keeps one schedule per queue). */
export const SCHEDULES: { queue: QueueName; cron: string; tz: string }[] = [
  { queue: 'purge-idempotency-keys', cron: '17 * * * *', tz: 'UTC' },
  // Fiscal closings: at 00:00 UTC the previous day (and month, year) closes; the other hourly runs
  // only find work when a stopped worker missed midnight, or an anchor is still pending.
  { queue: 'close-fiscal-periods', cron: '0 * * * *', tz: 'UTC' },
  // Incoming supplier invoices: the daily inbox sync (the provider's webhook triggers one sooner).
  { queue: 'schedule-incoming-syncs', cron: '30 5 * * *', tz: 'Europe/Paris' },
  // E-invoicing lifecycle: SuperPDP has no webhooks, so its event streams are read every minute.
  { queue: 'sync-all-provider-events', cron: '* * * * *', tz: 'UTC' },
];
