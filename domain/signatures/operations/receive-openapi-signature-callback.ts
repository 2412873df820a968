import type { InboundEventOutcome } from '../../../schemas/inbound-events.js';
import type { OpenapiCallbackInput } from '../../../schemas/signature-provider-jobs.js';
import { unstorablePaths } from '../../../schemas/unstorable-text.js';
import { AppError } from '../../shared/app-error.js';
import { systemCaller } from '../../shared/caller.js';
import { defineCommand, type OperationContext } from '../../shared/operation.js';
import { inTenantContext } from '../../shared/tenant-context.js';
import { recordInboundEvent } from '../../webhooks/operations/index.js';
import { callbackTokenMatches } from '../provider/callback-token.js';

/** A callback body is a hint of a few kilobytes; anything near this is not Openapi's. */
const MAX_BODY_BYTES = 256 * 1024;

interface Hint {
  id: string;
  state: string;
}

/**
 * The body as Openapi sends it (provider-apis.md §2.5): JSON `{data: <signature>, custom}`, or a form
 * whose `data` field holds that JSON. Only the request id and state are read.
 */
function hintOf(raw: Buffer): Hint {
  if (raw.length > MAX_BODY_BYTES) throw AppError.validation({ body: [`must be at most ${MAX_BODY_BYTES} bytes`] });
  const text = raw.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    const data = new URLSearchParams(text).get('data');
    try {
      body = data ? { data: JSON.parse(data) } : null;
    } catch {
      body = null;
    }
  }
  const unstorable = body ? unstorablePaths(body) : [];
  if (unstorable.length) throw AppError.validation(Object.fromEntries(unstorable.map(([p, why]) => [p, [why]])));
  const data = ((body as { data?: unknown } | null)?.data ?? body) as { id?: unknown; state?: unknown } | null;
  const id = typeof data?.id === 'string' || typeof data?.id === 'number' ? String(data.id) : '';
  if (!id || id.length > 255) {
    throw AppError.validation({ 'data.id': ["is required: the provider's signature id"] });
  }
  return { id, state: typeof data?.state === 'string' ? data.state.slice(0, 40).toUpperCase() : 'UNKNOWN' };
}

const refused = () =>
  new AppError('WEBHOOK_SIGNATURE_INVALID', "The callback's token is missing or wrong.", { retryable: false });

export const receiveOpenapiSignatureCallback = defineCommand<OpenapiCallbackInput, InboundEventOutcome>({
  name: 'receive_openapi_signature_callback',
  summary:
    'Openapi eSignature callback (not for integrators): authenticated by the opaque token of the request’s callback URL (`?t=`), compared in constant time. The body is only a hint: the request’s state is read again from Openapi before anything changes. Each (request, state) is processed once.',
  input: 'OpenapiCallbackInput',
  output: 'InboundEventOutcome',
  callers: ['anonymous'],
  transactional: false,
  async run(input, ctx) {
    if (!input.t) throw refused();
    const hint = hintOf(Buffer.from(input.raw_body, 'base64'));
    const found = await inTenantContext(ctx.deps.db, systemCaller(), async (tx) => {
      const { rows } = await tx.raw<{ rows: { tenant_id: string; signature_request_id: string }[] }>(
        'select * from signature_find_by_provider(?, ?)',
        ['openapi', hint.id],
      );
      return rows[0] ?? null;
    });
    // An unknown request and a wrong token answer alike: nothing tells a forger which ids exist.
    if (!found || !callbackTokenMatches(ctx.deps.config, found.signature_request_id, input.t)) {
      ctx.log.warn({ provider_id: hint.id }, 'openapi signature callback refused: unknown request or wrong token');
      throw refused();
    }
    return recordInboundEvent(
      'openapi-signature',
      { id: `${hint.id}:${hint.state}`, type: hint.state },
      Buffer.from(input.raw_body, 'base64'),
      hint,
      async (_payload, claim: OperationContext) => {
        await claim.jobs.send(
          'sync-signature',
          { tenantId: found.tenant_id, signatureId: found.signature_request_id },
          { singletonKey: found.signature_request_id },
        );
      },
      ctx.deps,
    );
  },
});
