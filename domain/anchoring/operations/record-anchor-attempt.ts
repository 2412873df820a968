import type { RecordAnchorAttemptInput } from '../../../schemas/fiscal-anchors.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { findAnchor, recordAttempt } from '../anchor-store.js';
import type { AnchorToStamp } from './get-anchor-to-stamp.js';

export const recordAnchorAttempt = defineCommand<RecordAnchorAttemptInput, AnchorToStamp>({
  name: 'record_anchor_attempt',
  summary: 'Record a call to the time-stamp authority that got no answer; the anchor stays pending (workers).',
  input: 'RecordAnchorAttemptInput',
  output: 'AnchorToStamp',
  callers: ['system'],
  async run(input, ctx) {
    const anchor = await findAnchor(ctx.tx, ctx.caller.tenantId!, input.anchor_id);
    if (!anchor) throw new AppError('NOT_FOUND', `No anchor ${input.anchor_id}.`, { retryable: false });
    await recordAttempt(ctx.tx, {
      tenantId: anchor.tenant_id,
      anchorId: anchor.id,
      outcome: 'unavailable',
      detail: input.detail,
      tsaUrl: ctx.deps.tsa.url,
      at: ctx.clock.now(),
    });
    return { id: anchor.id, status: anchor.status, data_hash: anchor.data_hash };
  },
});
