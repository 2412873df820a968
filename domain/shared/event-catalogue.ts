/**
 * Every event name an operation may emit: the specification's names plus the origin's catalogue
 * (spec/DECISIONS.md, "Outgoing webhooks"). Endpoints subscribe to these.
 */
export const EVENT_NAMES = [
  'invoice.created',
  'invoice.validated',
  'invoice.transmitted',
  'invoice.rejected',
  'invoice.paid',
  'invoice.incoming.received',
  'invoice.incoming.accepted',
  'invoice.incoming.rejected',
  'invoice.incoming.disputed',
  'invoice.incoming.paid',
  'credit_note.created',
  'credit_note.sent',
  'signature.created',
  'signature.signed',
  'signature.completed',
  'signature.refused',
  'signature.expired',
  'signature.cancelled',
  // Ours (docs/decisions/0092): the signature provider could not take the request; refunded.
  'signature.failed',
  'onboarding.completed',
  'balance.low',
  'balance.critical',
  // The operator's monthly invoice to a tenant, once its Factur-X is ready to download.
  'billing_invoice.created',
  // Ours (spec/DECISIONS.md): a top-up or an auto-reload credited the balance; an auto-reload failed.
  'balance.topped_up',
  'balance.auto_reload_failed',
  // Quotes (spec/DECISIONS.md names quote.accepted and quote.refused; the others follow the same
  // status changes, docs/decisions/0075).
  'quote.created',
  'quote.updated',
  'quote.sent',
  'quote.viewed',
  'quote.accepted',
  'quote.refused',
  'quote.expired',
  'quote.cancelled',
  'quote.converted',
  // Sent to the owner's other endpoints when one is disabled (410, or failing for days).
  'webhook_endpoint.disabled',
  // A tenant's KYB moved (spec "KYB status"): to documents_submitted, under_review, verified, rejected or back to pending.
  'kyb.status_changed',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** An endpoint subscribed to `*` receives every event, those added to the catalogue later included. */
export const ALL_EVENTS = '*';

export const isEventName = (name: string): name is EventName => (EVENT_NAMES as readonly string[]).includes(name);
