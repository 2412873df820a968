import type { EmptyInput } from '../../../schemas/common.js';
import type { PurgeResult } from '../../../schemas/maintenance.js';
import { defineCommand } from '../../shared/operation.js';
import { purgeExpiredIdempotencyKeys } from '../idempotency-store.js';

export const purgeIdempotencyKeys = defineCommand<EmptyInput, PurgeResult>({
  name: 'purge_idempotency_keys',
  summary: 'Delete Idempotency-Key records whose 24-hour window has passed.',
  input: 'EmptyInput',
  output: 'PurgeResult',
  callers: ['system'],
  async run(_input, ctx) {
    return { deleted: await purgeExpiredIdempotencyKeys(ctx.tx, ctx.clock.now()) };
  },
});
