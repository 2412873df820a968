import { buildTimeStampRequest, randomNonce, tsaUnavailable } from '../../domain/anchoring/index.js';
import {
  completeFiscalAnchor,
  getAnchorToStamp,
  recordAnchorAttempt,
} from '../../domain/anchoring/operations/index.js';
import { AppError, isAppError } from '../../domain/shared/app-error.js';
import { systemCaller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import type { JobHandler } from '../job-handler.js';

/**
 * Time-stamps a closing hash: reads the pending anchor, asks the TSA outside any transaction (a
 * fresh nonce per call), then records the verified reply. A TSA that is down leaves the anchor
 * pending, the attempt on record, and throws a retryable error: pg-boss tries again with backoff
 * (domain/shared/queues.ts). The closing itself was committed long before and never waits on this.
 */
export const anchorFiscalClosing: JobHandler<'anchor-fiscal-closing'> = async ({ tenantId, anchorId }, deps) => {
  const caller = systemCaller(tenantId);
  const anchor = await execute(getAnchorToStamp, { anchor_id: anchorId }, caller, deps);
  if (anchor.status !== 'pending') return { skipped: true, status: anchor.status };
  const nonce = randomNonce();
  let reply: Buffer;
  try {
    reply = await deps.tsa.stamp(buildTimeStampRequest(anchor.data_hash, nonce));
  } catch (err) {
    const failure = isAppError(err) ? err : tsaUnavailable((err as Error).message, err);
    await execute(recordAnchorAttempt, { anchor_id: anchorId, detail: failure.message.slice(0, 1000) }, caller, deps);
    throw failure;
  }
  const done = await execute(
    completeFiscalAnchor,
    { anchor_id: anchorId, nonce: nonce.toString(), reply: reply.toString('base64') },
    caller,
    deps,
  );
  if (done.status === 'pending') {
    throw new AppError('PROVIDER_UNAVAILABLE', `Anchor ${anchorId} is still pending: ${done.last_error}`, {
      retryable: true,
    });
  }
  return { status: done.status, verified: done.verified };
};
