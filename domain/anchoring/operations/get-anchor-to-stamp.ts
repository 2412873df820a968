import type { AnchorToStamp, AnchorToStampInput } from '../../../schemas/fiscal-anchors.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { findAnchor } from '../anchor-store.js';

/** Schema `AnchorToStamp`: the type comes from the schema. */
export type { AnchorToStamp };

export const getAnchorToStamp = defineQuery<AnchorToStampInput, AnchorToStamp>({
  name: 'get_anchor_to_stamp',
  summary: 'The hash a pending anchor is to time-stamp, and its state (workers).',
  input: 'AnchorToStampInput',
  output: 'AnchorToStamp',
  callers: ['system'],
  async run(input, ctx) {
    const anchor = await findAnchor(ctx.tx, ctx.caller.tenantId!, input.anchor_id);
    if (!anchor) throw new AppError('NOT_FOUND', `No anchor ${input.anchor_id}.`, { retryable: false });
    return { id: anchor.id, status: anchor.status, data_hash: anchor.data_hash };
  },
});
