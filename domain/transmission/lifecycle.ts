import type { EventName } from '../shared/event-catalogue.js';

/** Invoice statuses of the transmission flow (spec "States and transitions", DECISIONS.md "Invoice lifecycle"). */
export type InvoiceStatus =
  | 'draft'
  | 'submitted'
  | 'transmitted'
  | 'processing'
  | 'completed'
  | 'failed'
  | 'paid'
  | 'rejected'
  | 'deleted';

/** What one provider code does to an invoice. */
export interface LifecycleRule {
  /** The status it moves to; absent: the status stays. */
  to?: InvoiceStatus;
  /** The webhook it emits when it moves the invoice. */
  event?: EventName;
  /** The reason (code and text) becomes the invoice's `status_message`. */
  setsMessage?: boolean;
  /** `fr:211`: the buyer says the payment is sent. */
  paymentSent?: boolean;
  /** `fr:212`: the seller's payment is received (a `payment` ledger entry). */
  paid?: boolean;
}

const transmitted: LifecycleRule = { to: 'transmitted', event: 'invoice.transmitted' };
const processing: LifecycleRule = { to: 'processing' };
const completed: LifecycleRule = { to: 'completed', event: 'invoice.validated' };
const rejected: LifecycleRule = { to: 'rejected', event: 'invoice.rejected', setsMessage: true };

/** The one transition table, fed by SuperPDP `api:*` and French `fr:2xx` codes (provider-apis.md §1.5, §4). */
export const LIFECYCLE_RULES: Record<string, LifecycleRule> = {
  'api:uploaded': {},
  'api:validated': transmitted,
  'api:sent': transmitted,
  'fr:200': transmitted,
  'fr:201': transmitted,
  'fr:202': processing,
  'fr:203': processing,
  'fr:204': processing,
  'fr:207': { ...processing, setsMessage: true },
  'fr:208': { ...processing, setsMessage: true },
  'fr:209': processing,
  'fr:205': completed,
  'fr:206': completed,
  'fr:210': rejected,
  'fr:213': rejected,
  'fr:501': rejected,
  'api:invalid': rejected,
  'api:rejected': rejected,
  'fr:211': { paymentSent: true },
  'fr:212': { to: 'paid', event: 'invoice.paid', paid: true },
};

/** French labels of the lifecycle codes (provider-apis.md §4) and SuperPDP's own codes. */
export const LIFECYCLE_LABELS: Record<string, string> = {
  'api:uploaded': 'Déposée chez la plateforme',
  'api:invalid': 'Invalide',
  'api:validated': 'Validée',
  'api:sent': 'Envoyée',
  'api:rejected': 'Rejetée par le réseau',
  'fr:200': 'Déposée',
  'fr:201': 'Émise par la plateforme',
  'fr:202': 'Reçue par la plateforme',
  'fr:203': 'Mise à disposition',
  'fr:204': 'Prise en charge',
  'fr:205': 'Approuvée',
  'fr:206': 'Approuvée partiellement',
  'fr:207': 'En litige',
  'fr:208': 'Suspendue',
  'fr:209': 'Complétée',
  'fr:210': 'Refusée',
  'fr:211': 'Paiement transmis',
  'fr:212': 'Encaissée',
  'fr:213': 'Rejetée',
  'fr:220': 'Annulée',
  'fr:501': 'Irrecevable',
};

export const labelOf = (code: string, providerText?: string | null): string =>
  LIFECYCLE_LABELS[code] ?? providerText ?? code;

/** Codes the sandbox `simulate` call may force. */
export const SIMULATABLE_CODES = Object.keys(LIFECYCLE_LABELS);

/** Statuses a lifecycle event still moves; `deleted`, `draft` and `failed` invoices are not at the provider. */
const LIVE: readonly InvoiceStatus[] = ['submitted', 'transmitted', 'processing', 'completed', 'rejected', 'paid'];

/**
 * The status an event leaves (SuperPDP's log is "not a state machine": any code may follow any
 * other), or null when it changes nothing. A paid invoice stays paid unless a platform rejects it.
 */
export function nextStatus(current: InvoiceStatus, rule: LifecycleRule): InvoiceStatus | null {
  if (!rule.to || !LIVE.includes(current) || rule.to === current) return null;
  if (current === 'paid' && rule.to !== 'rejected') return null;
  return rule.to;
}

/** Where a submission may start: a draft, or a failed upload (resubmission). */
export const SUBMITTABLE: readonly InvoiceStatus[] = ['draft', 'failed'];
/** Where a recorded payment may be taken: the invoice is at the buyer. */
export const PAYABLE: readonly InvoiceStatus[] = ['transmitted', 'processing', 'completed'];
