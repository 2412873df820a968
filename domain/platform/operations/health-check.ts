import type { EmptyInput } from '../../../schemas/common.js';
import type { HealthStatus } from '../../../schemas/platform.js';
import { AppError } from '../../shared/app-error.js';
import { ANY_CALLER } from '../../shared/caller.js';
import { pingDatabase } from '../../shared/database.js';
import { defineQuery } from '../../shared/operation.js';

export const healthCheck = defineQuery<EmptyInput, HealthStatus>({
  name: 'health_check',
  summary: 'Whether the service and its database answer. 503 when the database is unreachable.',
  input: 'EmptyInput',
  output: 'HealthStatus',
  callers: ANY_CALLER,
  transactional: false,
  async run(_input, ctx) {
    const timestamp = ctx.clock.now().toISOString();
    // Through the small counters pool: a main pool busy with requests is load, not an outage, and a
    // health check failing under load would take a busy web process out of its balancer.
    if (!(await pingDatabase(ctx.deps.counters))) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The database is unreachable.', {
        body: { status: 'unavailable', timestamp },
        headers: { 'Retry-After': '5' },
      });
    }
    return { status: 'ok', timestamp };
  },
});
