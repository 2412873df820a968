import { createHash } from 'node:crypto';
import type { InboundEventInput, InboundEventOutcome } from '../../../schemas/inbound-events.js';
import { unstorablePaths } from '../../../schemas/unstorable-text.js';
import { AppError } from '../../shared/app-error.js';
import { systemCaller } from '../../shared/caller.js';
import type { Deps } from '../../shared/deps.js';
import { execute } from '../../shared/execute.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { verifyInboundSignature } from '../inbound-signature.js';

export interface InboundCallback {
  /** Who sent it: the first half of the idempotence key. */
  provider: string;
  /** The request body exactly as received. */
  rawBody: Buffer;
  /** The signature header's value. */
  signature: string | null | undefined;
  /** The secret shared with the provider. */
  secret: string;
  /** The provider's event id (the second half of the key) and type, read from the verified payload. */
  identify(payload: unknown): { id: string; type?: string | null };
}

/** The processing of one event; it writes through `ctx.tx`, the transaction that records the event. */
export type InboundHandler = (payload: unknown, ctx: OperationContext) => Promise<void>;

/**
 * A provider callback, verified then processed once (spec "Inbound provider webhooks"): the
 * signature is checked on the raw bytes before anything is parsed (401 WEBHOOK_SIGNATURE_INVALID),
 * then the event is claimed in `inbound_events` and handled in the same transaction. A duplicate
 * (the same provider and event id, processed before or concurrently) answers `already_processed`;
 * a handler that throws rolls the claim back with its work, so the error (500) makes the provider
 * retry and nothing is recorded.
 */
export async function processInboundEvent(
  callback: InboundCallback,
  handler: InboundHandler,
  deps: Deps,
): Promise<InboundEventOutcome> {
  const check = verifyInboundSignature(callback.rawBody, callback.signature, callback.secret, deps.clock.now());
  if (!check.valid) {
    throw new AppError('WEBHOOK_SIGNATURE_INVALID', `The callback's signature is refused: ${check.reason}.`, {
      retryable: false,
    });
  }
  let payload: unknown;
  try {
    payload = JSON.parse(callback.rawBody.toString('utf8'));
  } catch {
    throw new AppError('INVALID_JSON', 'The callback body is not valid JSON.', { retryable: false });
  }
  // The handler queries and stores the payload's fields: text PostgreSQL cannot hold is refused here, not as a 500.
  const unstorable = unstorablePaths(payload);
  if (unstorable.length) {
    throw AppError.validation(Object.fromEntries(unstorable.map(([path, reason]) => [path, [reason]])));
  }
  return recordInboundEvent(callback.provider, callback.identify(payload), callback.rawBody, payload, handler, deps);
}

/**
 * A callback already authenticated (by its signature, or for providers that sign nothing by a
 * secret of its URL) and parsed: claimed once per (provider, event id) and handled in the claim's
 * transaction; a repeat answers `already_processed`.
 */
export function recordInboundEvent(
  provider: string,
  event: { id: string; type?: string | null },
  rawBody: Buffer,
  payload: unknown,
  handler: InboundHandler,
  deps: Deps,
): Promise<InboundEventOutcome> {
  const input: InboundEventInput = {
    provider,
    event_id: event.id,
    event_type: event.type ?? null,
    payload_sha256: createHash('sha256').update(rawBody).digest('hex'),
  };
  return execute(inboundEventOperation(handler, payload), input, systemCaller(), deps);
}

const inboundEventOperation = (handler: InboundHandler, payload: unknown) =>
  defineCommand<InboundEventInput, InboundEventOutcome>({
    name: 'process_inbound_event',
    summary: 'Record a verified provider event and process it, once per (provider, event id).',
    input: 'InboundEventInput',
    output: 'InboundEventOutcome',
    callers: ['system'],
    async run(input, ctx) {
      // A concurrent duplicate waits here on the unique key until the first commits (then it finds
      // the row) or rolls back (then it claims the event itself).
      const claimed = await ctx
        .tx('inbound_events')
        .insert({ ...input, processed_at: ctx.clock.now() })
        .onConflict(['provider', 'event_id'])
        .ignore()
        .returning('event_id');
      if (claimed.length === 0) {
        return { status: 'already_processed', provider: input.provider, event_id: input.event_id };
      }
      await handler(payload, ctx);
      ctx.log.info({ provider: input.provider, event_id: input.event_id }, 'inbound event processed');
      return { status: 'processed', provider: input.provider, event_id: input.event_id };
    },
  });
