import { randomUUID } from 'node:crypto';
import type { CreateWebhookEndpointInput } from '../../../schemas/webhooks.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { assertEndpointUrl, headerColumns } from '../endpoint-fields.js';
import { insertEndpoint, liveEndpoints, MAX_ENDPOINTS } from '../endpoint-store.js';
import { toEndpointView, type WebhookEndpointView } from '../webhook-endpoint.js';
import { generateWebhookSecret, sealWebhookSecret } from '../webhook-secret.js';

export type CreatedWebhookEndpoint = WebhookEndpointView & { secret: string };

export const createWebhookEndpoint = defineCommand<CreateWebhookEndpointInput, CreatedWebhookEndpoint>({
  name: 'create_webhook_endpoint',
  summary:
    'Register a URL that receives your events (signed POSTs) for one environment. The signing secret (whsec_…) is returned this once; later reads show its last 4 characters.',
  input: 'CreateWebhookEndpointInput',
  output: 'CreatedWebhookEndpoint',
  callers: ['user'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const appKey = ctx.deps.config.appKey!;
    await assertEndpointUrl(input.url, ctx.deps.config.allowPrivateUrls);
    const id = randomUUID();
    const headers = headerColumns(appKey, id, input.headers);
    // The tenant row is locked so that concurrent creations cannot pass the limit together.
    await ctx.tx('tenants').where({ id: tenantId }).forUpdate().first('id');
    const [{ n }] = await liveEndpoints(ctx.tx, tenantId)
      .where({ kind: 'endpoint' })
      .count<{ n: string }[]>({ n: '*' });
    if (Number(n) >= MAX_ENDPOINTS) {
      throw new AppError(
        'WEBHOOK_ENDPOINT_LIMIT_REACHED',
        `You have ${MAX_ENDPOINTS} webhook endpoints already; delete one first (DELETE /api/v1/webhooks/{id}).`,
      );
    }
    const secret = generateWebhookSecret();
    const now = ctx.clock.now();
    const row = await insertEndpoint(ctx.tx, {
      id,
      tenant_id: tenantId,
      kind: 'endpoint',
      url: input.url,
      description: input.description ?? null,
      events: input.events,
      environment: input.environment,
      secret_encrypted: sealWebhookSecret(appKey, id, secret),
      secret_last4: secret.slice(-4),
      ...headers,
      timeout_seconds: input.timeout_seconds ?? 15,
      retry_count: input.retry_count ?? null,
      is_active: true,
      created_at: now,
      updated_at: now,
    });
    ctx.log.info({ webhook_endpoint_id: id, environment: input.environment }, 'webhook endpoint created');
    return { ...toEndpointView(row), secret };
  },
});
