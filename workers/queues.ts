import type { QueueName } from '../domain/shared/queues.js';
import { anchorFiscalClosing } from './handlers/anchor-fiscal-closing.js';
import { autoReloadBalance } from './handlers/auto-reload-balance.js';
import { billTenantMonth } from './handlers/bill-tenant-month.js';
import { checkOnboardingReview } from './handlers/check-onboarding-review.js';
import { closeFiscalChainJob } from './handlers/close-fiscal-chain.js';
import { closeFiscalPeriods } from './handlers/close-fiscal-periods.js';
import { completeSignatureJob } from './handlers/complete-signature.js';
import { deliverWebhook, deliverWebhookBatch } from './handlers/deliver-webhook.js';
import { dispatchEvent, dispatchEventBatch } from './handlers/dispatch-event.js';
import { expireQuoteJob } from './handlers/expire-quote.js';
import { expireSignaturesJob } from './handlers/expire-signatures.js';
import { generateCreditNoteDocumentsJob } from './handlers/generate-credit-note-documents.js';
import { generateInvoiceDocumentsBatch, generateInvoiceDocumentsJob } from './handlers/generate-invoice-documents.js';
import { notifyWebhookDisabled } from './handlers/notify-webhook-disabled.js';
import { purgeIdempotencyKeys } from './handlers/purge-idempotency-keys.js';
import { runMonthlyBillingJob } from './handlers/run-monthly-billing.js';
import { scheduleIncomingSyncsJob } from './handlers/schedule-incoming-syncs.js';
import { sendBalanceAlert } from './handlers/send-balance-alert.js';
import { sendEmailVerification } from './handlers/send-email-verification.js';
import { sendIncomingStatus } from './handlers/send-incoming-status.js';
import { sendInvoiceStatus } from './handlers/send-invoice-status.js';
import { sendKybStatusMail } from './handlers/send-kyb-status-mail.js';
import { sendPasswordReset } from './handlers/send-password-reset.js';
import { sendQuoteMail } from './handlers/send-quote-mail.js';
import { sendSignatureReminders } from './handlers/send-signature-reminders.js';
import { sendSigningCode } from './handlers/send-signing-code.js';
import {
  deleteProviderSignatureJob,
  submitSignatureJob,
  syncProviderSignaturesJob,
  syncSignatureJob,
} from './handlers/signature-provider.js';
import { syncAllProviderEvents } from './handlers/sync-all-provider-events.js';
import { syncIncomingInvoicesJob } from './handlers/sync-incoming-invoices.js';
import { syncProviderEvents } from './handlers/sync-provider-events.js';
import { transmitInvoice } from './handlers/transmit-invoice.js';
import { verifyCompanyKyc } from './handlers/verify-company-kyc.js';
import type { BatchJobHandler, JobHandler } from './job-handler.js';

export interface WorkerSpec<Q extends QueueName> {
  handler: JobHandler<Q>;
  /**
   * Fetch loops in one worker process (WORKER_CONCURRENCY when unset), each claiming up to `batch`
   * jobs at a time. A batch of 2 or more is what lets a loop fetch again at once while its last
   * fetch came back full, instead of sleeping a polling interval between jobs.
   */
  workers?: number;
  batch: number;
  /**
   * `serial`: the jobs of a batch run one after the other, yielding to the event loop in between
   * (CPU-bound rendering, where running more at once only adds latency). `parallel`: they run at
   * once (jobs that mostly wait on the database, a receiver or a provider).
   */
  run: 'serial' | 'parallel';
  /**
   * Works a whole fetched batch in one call (one transaction): the queue's cost per job is then the
   * batch's statements shared out, not a transaction each. `handler` still runs a job alone (a
   * batch of one, or each job of a batch that failed as a whole).
   */
  batchHandler?: BatchJobHandler<Q>;
  /**
   * For queues that wait on a third party (receivers, providers, a TSA): one tenant's claimed jobs
   * are capped, across every worker process, at the pool less one loop's batch (pg-boss
   * `groupConcurrency`), so a tenant whose third party is slow cannot hold every loop. Which of the
   * waiting jobs goes first is the jobs' fair-share priority (domain/shared/fair-share.ts), on
   * every queue.
   */
  capPerTenant?: true;
}

/** Which handler works each queue. Queue options (retries, dead letter) are in domain/shared/queues.ts. */
export const WORKERS: { [Q in QueueName]: WorkerSpec<Q> } = {
  // Every invoice of a burst queues one event: a loop fans out up to 50 in one transaction.
  'dispatch-event': {
    handler: dispatchEvent,
    batchHandler: dispatchEventBatch,
    workers: 2,
    batch: 50,
    run: 'parallel',
  },
  'purge-idempotency-keys': { handler: purgeIdempotencyKeys, workers: 1, batch: 1, run: 'serial' },
  'verify-company-kyc': { handler: verifyCompanyKyc, batch: 2, run: 'parallel', capPerTenant: true },
  'check-onboarding-review': { handler: checkOnboardingReview, batch: 2, run: 'parallel', capPerTenant: true },
  'send-password-reset': { handler: sendPasswordReset, batch: 2, run: 'parallel' },
  'send-email-verification': { handler: sendEmailVerification, batch: 2, run: 'parallel' },
  // A loop claims up to 25 invoices and writes all their files in one transaction (a fixed number
  // of statements per batch); three loops keep rendering (CPU) overlapping the batches' database
  // round trips.
  'generate-invoice-documents': {
    handler: generateInvoiceDocumentsJob,
    batchHandler: generateInvoiceDocumentsBatch,
    workers: 3,
    batch: 25,
    run: 'serial',
  },
  'generate-credit-note-documents': {
    handler: generateCreditNoteDocumentsJob,
    workers: 5,
    batch: 2,
    run: 'serial',
  },
  // Mostly waiting on receivers (up to 15 s each): a loop sends up to 25 at once, prepared in one
  // transaction and recorded in another whatever their tenants; a tenant whose receivers are slow
  // leaves loops to the others. One tenant has at most 175 attempts in flight (7 loops' batches,
  // across every worker): at 10 a batch, 70, and a single tenant's burst of 500 invoices a second
  // left its webhooks 1.2-1.8 s behind on the benchmark; at 25 they follow within 0.3 s.
  'deliver-webhook': {
    handler: deliverWebhook,
    batchHandler: deliverWebhookBatch,
    workers: 8,
    batch: 25,
    run: 'parallel',
    capPerTenant: true,
  },
  'notify-webhook-disabled': { handler: notifyWebhookDisabled, batch: 2, run: 'parallel', capPerTenant: true },
  'send-kyb-status-mail': { handler: sendKybStatusMail, batch: 2, run: 'parallel', capPerTenant: true },
  'close-fiscal-periods': { handler: closeFiscalPeriods, workers: 1, batch: 1, run: 'serial' },
  'close-fiscal-chain': { handler: closeFiscalChainJob, batch: 2, run: 'parallel' },
  'anchor-fiscal-closing': { handler: anchorFiscalClosing, batch: 2, run: 'parallel', capPerTenant: true },
  'send-incoming-status': { handler: sendIncomingStatus, batch: 2, run: 'parallel', capPerTenant: true },
  // A whole inbox per job: one at a time per loop. Batches of 2 (worked one after the other) so that
  // a loop fetches again at once while accounts are waiting: at a batch of 1 each loop slept its
  // polling interval (2 s) between two inboxes, and a trigger that queues a sync per account took
  // that long per account (the soak's inbox sync lagged 20-40 s behind the inboxes).
  'sync-incoming-invoices': {
    handler: syncIncomingInvoicesJob,
    workers: 2,
    batch: 2,
    run: 'serial',
    capPerTenant: true,
  },
  'schedule-incoming-syncs': { handler: scheduleIncomingSyncsJob, workers: 1, batch: 1, run: 'serial' },
  // Mostly waiting on the provider: many in flight, and a busy tenant leaves a loop to the others.
  'transmit-invoice': { handler: transmitInvoice, workers: 4, batch: 2, run: 'parallel', capPerTenant: true },
  'sync-provider-events': { handler: syncProviderEvents, batch: 2, run: 'parallel', capPerTenant: true },
  'sync-all-provider-events': { handler: syncAllProviderEvents, workers: 1, batch: 1, run: 'serial' },
  'send-invoice-status': { handler: sendInvoiceStatus, batch: 2, run: 'parallel', capPerTenant: true },
  'expire-signatures': { handler: expireSignaturesJob, workers: 1, batch: 1, run: 'serial' },
  'expire-quote': { handler: expireQuoteJob, workers: 1, batch: 5, run: 'serial' },
  'send-quote-mail': { handler: sendQuoteMail, batch: 2, run: 'parallel', capPerTenant: true },
  'send-signature-reminders': { handler: sendSignatureReminders, batch: 2, run: 'parallel', capPerTenant: true },
  'send-signing-code': { handler: sendSigningCode, batch: 2, run: 'parallel', capPerTenant: true },
  // Signing and hashing a large PDF is CPU-bound: one at a time per loop.
  'complete-signature': { handler: completeSignatureJob, batch: 1, run: 'serial' },
  // Waiting on Openapi: a few in flight; a busy tenant leaves a loop to the others.
  'submit-signature': { handler: submitSignatureJob, workers: 2, batch: 2, run: 'parallel', capPerTenant: true },
  'sync-signature': { handler: syncSignatureJob, workers: 2, batch: 2, run: 'parallel', capPerTenant: true },
  'delete-provider-signature': { handler: deleteProviderSignatureJob, batch: 2, run: 'parallel' },
  'sync-provider-signatures': { handler: syncProviderSignaturesJob, workers: 1, batch: 1, run: 'serial' },
  'run-monthly-billing': { handler: runMonthlyBillingJob, workers: 1, batch: 1, run: 'serial' },
  // Renders a Factur-X (CPU): one at a time per loop.
  'bill-tenant-month': { handler: billTenantMonth, workers: 2, batch: 1, run: 'serial' },
  'auto-reload-balance': { handler: autoReloadBalance, batch: 2, run: 'parallel', capPerTenant: true },
  'send-balance-alert': { handler: sendBalanceAlert, batch: 2, run: 'parallel' },
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
  // Signature requests past their deadline become `expired` within five minutes.
  { queue: 'expire-signatures', cron: '*/5 * * * *', tz: 'UTC' },
  // Openapi requests not heard of for 15 minutes are read again (a lost callback).
  { queue: 'sync-provider-signatures', cron: '*/5 * * * *', tz: 'UTC' },
  // Monthly billing: at 02:00 on the 1st in Paris, the month that just ended.
  { queue: 'run-monthly-billing', cron: '0 2 1 * *', tz: 'Europe/Paris' },
];
