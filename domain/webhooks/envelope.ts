import type { Environment } from '../shared/caller.js';

/** An outbox event (the `events` table). */
export interface OutboxEvent {
  id: string;
  name: string;
  environment: Environment;
  data: Record<string, unknown>;
  created_at: Date;
}

/**
 * The body of every delivery of an event (spec/DECISIONS.md, "Outgoing webhooks"):
 * `{id, event, timestamp, environment, data}`. The same bytes on every attempt; `id` is the event's,
 * the same for every endpoint.
 */
export const envelopeOf = (event: OutboxEvent): string =>
  JSON.stringify({
    id: event.id,
    event: event.name,
    timestamp: event.created_at.toISOString(),
    environment: event.environment,
    data: event.data,
  });
