import type { InboundCallbackInput, InboundEventOutcome } from '../../../schemas/inbound-events.js';
import { scheduleIncomingSyncs } from '../../incoming/operations/index.js';
import { AppError } from '../../shared/app-error.js';
import { execute } from '../../shared/execute.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { processInboundEvent } from '../../webhooks/operations/index.js';

interface Trigger {
  id?: unknown;
  type?: unknown;
  data?: { invoice_id?: unknown } | null;
}

/**
 * What a verified trigger does (provider-apis.md §1.10, [OURS]): the body is never trusted, it
 * only says whose stream to read now. `invoice.received` reads every connection's inbox; otherwise
 * the connection that carries the named invoice is synced, and an unknown invoice (or none named)
 * syncs every SuperPDP connection.
 */
async function queueSync(payload: unknown, ctx: OperationContext): Promise<void> {
  if ((payload as Trigger).type === 'invoice.received') {
    // a new invoice in some company's inbox: read the inboxes (one sync per account at most)
    await execute(scheduleIncomingSyncs, {}, ctx.caller, ctx.deps);
    return;
  }
  const pdpId = (payload as Trigger).data?.invoice_id;
  const rows =
    typeof pdpId === 'number' || typeof pdpId === 'string'
      ? await ctx
          .tx('invoices as i')
          .join('provider_connections as pc', 'pc.id', 'i.provider_connection_id')
          .where({ 'i.pdp_id': String(pdpId), 'pc.provider': 'superpdp' })
          .distinct<{ id: string; tenant_id: string }[]>('pc.id', 'pc.tenant_id')
      : [];
  for (const row of rows) {
    await ctx.jobs.send(
      'sync-provider-events',
      { tenantId: row.tenant_id, connectionId: row.id },
      { singletonKey: row.id },
    );
  }
  if (rows.length === 0) await ctx.jobs.send('sync-all-provider-events', {});
}

const identify = (payload: unknown) => {
  const { id, type } = (payload ?? {}) as Trigger;
  if (typeof id !== 'string' || id.length === 0 || id.length > 255) {
    throw AppError.validation({ id: ['is required: the event id (a string of at most 255 characters)'] });
  }
  return { id, type: typeof type === 'string' ? type.slice(0, 255) : null };
};

export const receiveSuperpdpCallback = defineCommand<InboundCallbackInput, InboundEventOutcome>({
  name: 'receive_superpdp_callback',
  summary:
    'SuperPDP callback (not for integrators): a signed trigger (`X-SuperPDP-Signature: t=…,v1=…`) that makes the service read the provider’s events now. Each event id is processed once; a repeat answers `already_processed`.',
  input: 'InboundCallbackInput',
  output: 'InboundEventOutcome',
  callers: ['anonymous'],
  transactional: false,
  run: (input, ctx) =>
    processInboundEvent(
      {
        provider: 'superpdp',
        rawBody: Buffer.from(input.raw_body, 'base64'),
        signature: input.signature,
        secret: ctx.deps.config.superpdpWebhookSecret ?? '',
        identify,
      },
      queueSync,
      ctx.deps,
    ),
});
