import type { PgBoss, Queue, SendOptions } from 'pg-boss';
import type { Environment } from './caller.js';
import { DEFAULT_FINISHED_JOBS_KEEP_HOURS } from './settings.js';

/** What each queue's jobs carry. A new queue is a new row here and in QUEUES. */
export interface JobPayloads {
  /** Fan an outbox event out to its webhook endpoints, then mark it dispatched. */
  'dispatch-event': { eventId: string; tenantId: string };
  /** Delete Idempotency-Key records older than their 24 h window. */
  'purge-idempotency-keys': Record<string, never>;
  /** Ask the KYC provider for the outcome of a company's pending verification and record it. */
  'verify-company-kyc': { tenantId: string; companyId: string; reference: string; siret: string };
  /** Ask the onboarding provider whether it has verified a company it was still reviewing, and record it. */
  'check-onboarding-review': { tenantId: string; sessionId: string };
  /** Make a password reset token for a user and mail the link (POST /v1/auth/forgot-password). */
  'send-password-reset': { tenantId: string; userId: string };
  /** Make an e-mail verification token for a user and mail the link (registration, resend). */
  'send-email-verification': { tenantId: string; userId: string };
  /** Render an invoice's files (its format, and the readable PDF) from the stored invoice. */
  'generate-invoice-documents': { tenantId: string; invoiceId: string };
  /** Render a credit note's files (CII 381, UBL CreditNote, Factur-X, readable PDF) from the stored credit note. */
  'generate-credit-note-documents': { tenantId: string; creditNoteId: string };
  /** Make attempt `attempt` of one webhook delivery; a failed attempt queues the next one (startAfter). */
  'deliver-webhook': { tenantId: string; deliveryId: string; attempt: number };
  /** Tell the owner of a webhook endpoint the service disabled, by technical e-mail. */
  'notify-webhook-disabled': { tenantId: string; endpointId: string };
  /** Tell a tenant by e-mail where its KYB now stands: the status it moved to and, when rejected, why. */
  'send-kyb-status-mail': {
    tenantId: string;
    status: 'pending' | 'documents_submitted' | 'under_review' | 'verified' | 'rejected';
    rejectionReason: string | null;
  };
  /** Cron: queue one `close-fiscal-chain` job per fiscal chain with a closing due, and re-queue stalled anchors. */
  'close-fiscal-periods': Record<string, never>;
  /** Close a chain's daily periods up to `date` (YYYY-MM-DD), and its months and years ended by then. */
  'close-fiscal-chain': { tenantId: string; environment: Environment; subTenantId: string | null; date: string };
  /** Time-stamp a closing's hash (RFC 3161) and record the token on its anchor. */
  'anchor-fiscal-closing': { tenantId: string; anchorId: string };
  /** Upload a submitted invoice's file to the e-invoicing provider (once: found or uploaded), then record it. */
  'transmit-invoice': { tenantId: string; invoiceId: string };
  /** Read a provider connection's new lifecycle events from its cursor and apply them. */
  'sync-provider-events': { tenantId: string; connectionId: string };
  /** Cron (and unknown inbound triggers): queue `sync-provider-events` for every connection worth reading. */
  'sync-all-provider-events': Record<string, never>;
  /** Send a lifecycle status about an invoice to the provider (`fr:212` once the seller is paid). */
  'send-invoice-status': { tenantId: string; invoiceId: string; statusCode: string };
  /** Send the lifecycle status of a decision on an incoming invoice (`fr:205`, …) to the provider. */
  'send-incoming-status': { tenantId: string; eventId: string };
  /** Read one provider account's inbox from its cursor and store the new incoming invoices. */
  'sync-incoming-invoices': {
    accountId: string;
    tenantId: string;
    environment: Environment;
    subTenantId: string | null;
  };
  /** Cron (daily): queue one `sync-incoming-invoices` job per known provider account. */
  'schedule-incoming-syncs': Record<string, never>;
  /** Cron: move pending signature requests past their deadline to `expired`. */
  'expire-signatures': Record<string, never>;
  /** At the end of a sent quote's validity date: `expired` if the buyer has not answered. */
  'expire-quote': { tenantId: string; quoteId: string };
  /** Mail a sent production quote's link to its buyer (`buyer_email`). */
  'send-quote-mail': { tenantId: string; quoteId: string };
  /** Mail a signature request's pending signers a reminder with their signing link. */
  'send-signature-reminders': { tenantId: string; signatureId: string };
  /** Make a signer's one-time code and send it by e-mail or SMS. */
  'send-signing-code': { tenantId: string; signerId: string };
  /** Make the signed PDF and the proof file of a request whose signers have all signed, and complete it. */
  'complete-signature': { tenantId: string; signatureId: string };
  /** Hand a production request over to the signature provider (Openapi EU-SES). */
  'submit-signature': { tenantId: string; signatureId: string };
  /** Read a request's state at the signature provider and apply it (a callback's hint, or the poll). */
  'sync-signature': { tenantId: string; signatureId: string };
  /** Delete a cancelled, expired or failed request at the signature provider. */
  'delete-provider-signature': { tenantId: string; signatureId: string };
  /** Cron: queue a `sync-signature` for provider requests not heard of for a while (a lost callback). */
  'sync-provider-signatures': Record<string, never>;
  /** Cron (the 1st, Europe/Paris): queue one `bill-tenant-month` job per tenant with paid usage last month. */
  'run-monthly-billing': Record<string, never>;
  /** Issue a tenant's billing invoice for a month (`YYYY-MM`), once, then render its Factur-X. */
  'bill-tenant-month': { tenantId: string; month: string };
  /** Charge a pending auto-reload off-session on the saved card, then credit it or report the failure. */
  'auto-reload-balance': { tenantId: string; topUpId: string };
  /** Mail the tenant's billing contact that its balance crossed a threshold, or that an auto-reload failed. */
  'send-balance-alert': {
    tenantId: string;
    kind: 'low' | 'critical' | 'auto_reload_failed';
    /** The balance (EUR, 2 decimals) when it happened. */
    balance: string;
    /** The threshold crossed, or the auto-reload's amount. */
    threshold: string | null;
    reason: string | null;
  };
}
export type QueueName = keyof JobPayloads;

export interface QueueSpec {
  /** Queue policy: retries with exponential backoff, then the dead-letter queue. */
  create: Omit<Queue, 'name' | 'deadLetter'>;
  send?: SendOptions;
}

/** One table of queue options for every queue (pg-boss `docs/api/queues.md`). */
/**
 * The document queues' options. A worker killed mid-batch loses its heartbeat: the batch is worked
 * again after 10 s, not at its 120 s expiry (the fault suite, test/faults/, kills workers
 * mid-generation).
 */
const DOCUMENT_RENDERING = {
  retryLimit: 5,
  retryDelay: 5,
  retryBackoff: true,
  retryDelayMax: 300,
  expireInSeconds: 120,
  heartbeatSeconds: 10,
} as const;

export const QUEUES: Record<QueueName, QueueSpec> = {
  'dispatch-event': {
    // A worker killed, or a database that restarted, mid-batch: the jobs it held lose their heartbeat
    // and are worked again after 10 s rather than at their 300 s expiry (test/faults/).
    create: {
      retryLimit: 8,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: 300,
      heartbeatSeconds: 10,
    },
  },
  'purge-idempotency-keys': {
    create: { retryLimit: 2, retryDelay: 60, expireInSeconds: 600, policy: 'singleton' },
  },
  // A verification still pending at the provider is retried: 30 s doubling up to 1 h, about 10 h in all.
  'check-onboarding-review': {
    // SuperPDP reviews "usually within 24h": asked again after 10 s, then backing off to every hour, for about 3 days.
    create: { retryLimit: 80, retryDelay: 10, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 120 },
  },
  'verify-company-kyc': {
    create: { retryLimit: 15, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 120 },
  },
  'send-password-reset': {
    // A link is wanted now: a few quick retries; after ~15 min the user asks again.
    create: { retryLimit: 5, retryDelay: 10, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 120 },
  },
  'send-email-verification': {
    // As for reset links: a few quick retries; after that the user asks for a new link.
    create: { retryLimit: 5, retryDelay: 10, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 120 },
  },
  // Rendering is pure and a failure is recorded on the invoice; retries cover crashes and the database.
  'generate-invoice-documents': { create: DOCUMENT_RENDERING },
  // As for invoices: a failure is recorded on the credit note.
  'generate-credit-note-documents': { create: DOCUMENT_RENDERING },

  'deliver-webhook': {
    // The webhook schedule is ours (each failed attempt queues the next one with startAfter); these
    // retries cover the worker itself: the database, or a worker killed mid-call, whose job loses its
    // heartbeat after 10 s and is worked again (the same attempt, the same delivery id).
    create: {
      retryLimit: 10,
      retryDelay: 1,
      retryBackoff: true,
      retryDelayMax: 300,
      expireInSeconds: 60,
      heartbeatSeconds: 10,
    },
  },
  'notify-webhook-disabled': {
    create: { retryLimit: 5, retryDelay: 30, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 120 },
  },
  'send-kyb-status-mail': {
    create: { retryLimit: 5, retryDelay: 30, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 120 },
  },
  'close-fiscal-periods': {
    create: { retryLimit: 3, retryDelay: 60, expireInSeconds: 900, policy: 'singleton' },
  },
  // Closing is idempotent (one closing per chain, type and period); a failure is retried for a few hours.
  'close-fiscal-chain': {
    create: {
      retryLimit: 10,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: 900,
      policy: 'exclusive', // one job per chain (singletonKey) queued or running
    },
  },
  // A TSA that is down leaves the anchor pending: 30 s doubling up to 1 h, about a day in all; the
  // hourly closing schedule queues what is still pending after that. A worker killed mid-call loses
  // its heartbeat: the job is retried on that schedule rather than at its 300 s expiry, and asks
  // again with a fresh nonce (a token the dead worker received but did not store is never used).
  'anchor-fiscal-closing': {
    create: {
      retryLimit: 30,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: 300,
      heartbeatSeconds: 10,
      policy: 'exclusive', // one job per anchor (singletonKey) queued or running
    },
  },
  // A file still being generated, or an unreachable provider (network, 5xx, 403 under review), is
  // retried 5 s doubling up to 20 min (about 4 h in all);
  // the invoice fails after TRANSMISSION_MAX_ATTEMPTS (12; domain/transmission/operations/record-invoice-upload.ts).
  // A worker killed mid-upload loses its heartbeat; the job runs again and finds the upload by external_id.
  'transmit-invoice': {
    create: {
      retryLimit: 20,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 1200,
      expireInSeconds: 300,
      heartbeatSeconds: 10,
    },
  },
  // One sync per connection queued and one running (singletonKey = connection id).
  'sync-provider-events': {
    create: {
      retryLimit: 10,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 1800,
      expireInSeconds: 600,
      policy: 'stately',
    },
  },
  'sync-all-provider-events': {
    create: { retryLimit: 2, retryDelay: 30, expireInSeconds: 300, policy: 'singleton' },
  },
  'send-invoice-status': {
    create: { retryLimit: 20, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 300 },
  },
  // A provider that is down is retried: 30 s doubling up to 1 h, about a day in all.
  'send-incoming-status': {
    create: { retryLimit: 30, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 300 },
  },
  // One sync per account at a time (singletonKey = account id); the cursor makes a retry resume.
  'sync-incoming-invoices': {
    create: {
      retryLimit: 10,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: 900,
      policy: 'exclusive',
    },
  },
  'schedule-incoming-syncs': {
    create: { retryLimit: 3, retryDelay: 60, expireInSeconds: 600, policy: 'singleton' },
  },
  // Idempotent (only pending requests past their deadline move): the next run catches up on a failure.
  'expire-signatures': {
    create: { retryLimit: 2, retryDelay: 30, expireInSeconds: 300, policy: 'singleton' },
  },
  // Idempotent (only a quote still sent or viewed past its date moves); retries cover the database.
  'expire-quote': {
    create: { retryLimit: 5, retryDelay: 30, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 120 },
  },
  // A mail server that is down: retried for about an hour; the tenant can send the quote again.
  'send-quote-mail': {
    create: { retryLimit: 6, retryDelay: 30, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 120 },
  },
  // A mail server that is down: a few retries over about half an hour (a reminder is worth little later).
  'send-signature-reminders': {
    create: { retryLimit: 5, retryDelay: 30, retryBackoff: true, retryDelayMax: 600, expireInSeconds: 120 },
  },
  // A code is wanted now: a few quick retries (each makes a fresh code); the signer can ask again.
  'send-signing-code': {
    create: { retryLimit: 3, retryDelay: 5, retryBackoff: true, retryDelayMax: 60, expireInSeconds: 60 },
  },
  // CPU work on our own data: a failure is a bug or a database outage, retried a few times.
  'complete-signature': {
    create: { retryLimit: 5, retryDelay: 10, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 300 },
  },
  // The provider down or its wallet empty: retried for about a day, then the dead-letter queue.
  // An unreachable provider is retried 30 s doubling up to 1 h; the request fails (and is refunded)
  // after SIGNATURE_SUBMIT_MAX_ATTEMPTS (12, about 5 h; domain/signatures/operations/record-signature-handover.ts),
  // counted on the row: the retry limit only leaves room for that count and for crashes.
  'submit-signature': {
    create: { retryLimit: 20, retryDelay: 30, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 300 },
  },
  // One sync per request queued and one running (singletonKey = request id): a burst of callbacks
  // is one sync, and a callback during a sync still gets one after it. The poll catches up on failures.
  'sync-signature': {
    create: {
      retryLimit: 8,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 1800,
      expireInSeconds: 600,
      policy: 'stately',
    },
  },
  'delete-provider-signature': {
    create: { retryLimit: 8, retryDelay: 60, retryBackoff: true, retryDelayMax: 3600, expireInSeconds: 120 },
  },
  'sync-provider-signatures': {
    create: { retryLimit: 2, retryDelay: 30, expireInSeconds: 300, policy: 'singleton' },
  },
  // Only queues jobs: a failed run is retried, and running it again queues nothing twice.
  'run-monthly-billing': {
    create: {
      retryLimit: 5,
      retryDelay: 300,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: 600,
      policy: 'singleton',
    },
  },
  // Issuing is idempotent per (tenant, month); one job per tenant-month queued or running (singletonKey).
  // Retried over about a day (the database); a seller not configured stops it at once: set the
  // PUBLISHER_* settings, then `einvoice billing run --month YYYY-MM`.
  'bill-tenant-month': {
    create: {
      retryLimit: 10,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 3600,
      expireInSeconds: 300,
      policy: 'exclusive',
    },
  },
  // An unreachable payment provider is retried 30 s doubling up to 30 min (about 5 h); the charge
  // carries the top-up's idempotency key, so a retry after a lost answer never charges twice. A
  // declined card is an outcome (recorded, reported), not a retry.
  'auto-reload-balance': {
    create: {
      retryLimit: 10,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 1800,
      expireInSeconds: 120,
      policy: 'exclusive', // one job per top-up (singletonKey) queued or running
    },
  },
  'send-balance-alert': {
    create: { retryLimit: 5, retryDelay: 30, retryBackoff: true, retryDelayMax: 1800, expireInSeconds: 120 },
  },
};

export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

/** Jobs that exhaust their retries are copied here for an operator to inspect and redrive. */
export const deadLetterQueueOf = (queue: QueueName): string => `${queue}-dead-letter`;

/**
 * Creates (or brings up to date) every queue and its dead-letter queue. Idempotent. `keepHours`:
 * how long finished jobs stay (FINISHED_JOBS_KEEP_HOURS, set by the workers as they start); without
 * it a new queue gets the setting's default and an existing one keeps what it has.
 */
export async function ensureQueues(boss: PgBoss, keepHours?: number): Promise<void> {
  const deleteAfterSeconds = keepHours === undefined ? undefined : keepHours * 3600;
  for (const name of QUEUE_NAMES) {
    const deadLetter = deadLetterQueueOf(name);
    if (!(await boss.getQueue(deadLetter))) {
      await boss.createQueue(deadLetter, { retentionSeconds: 30 * 86400, deleteAfterSeconds: 30 * 86400 });
    }
    // notify: a job sent (in the sender's transaction) wakes the workers at its commit, instead of
    // at their next poll. Set on existing queues too, so a release turns it on.
    const { policy, ...options } = { notify: true, ...QUEUES[name].create };
    if (await boss.getQueue(name)) {
      await boss.updateQueue(name, { ...options, deadLetter, ...(deleteAfterSeconds ? { deleteAfterSeconds } : {}) });
    } else {
      await boss.createQueue(name, {
        ...options,
        policy,
        deadLetter,
        deleteAfterSeconds: deleteAfterSeconds ?? DEFAULT_FINISHED_JOBS_KEEP_HOURS * 3600,
      });
    }
  }
}
