import { randomUUID } from 'node:crypto';
import type { Environment } from '../shared/caller.js';
import { ALL_EVENTS } from '../shared/event-catalogue.js';
import type { OperationContext } from '../shared/operation.js';
import { cancelPendingDeliveries } from './delivery-store.js';
import { insertEndpoint, tenantProfileEndpoint, updateEndpoint } from './endpoint-store.js';
import { generateWebhookSecret, sealWebhookSecret } from './webhook-secret.js';

/**
 * Keeps a tenant's `webhook_url` of one environment (PUT /v1/tenant/me with a key of that
 * environment) and its delivery endpoint in step: every event of the tenant in that environment,
 * signed with that endpoint's own secret. Sandbox and production each have their own URL and secret,
 * so a sandbox key never steers production deliveries. Setting a URL where none was makes a secret,
 * returned this once; changing the URL keeps the secret and re-enables delivery; null removes the
 * endpoint (a later URL gets a new secret).
 */
export async function syncTenantWebhook(
  ctx: OperationContext,
  tenantId: string,
  environment: Environment,
  url: string | null,
): Promise<{ secret: string | null }> {
  const current = await tenantProfileEndpoint(ctx.tx, tenantId, environment);
  const now = ctx.clock.now();
  if (url === null) {
    if (current) {
      await updateEndpoint(ctx.tx, tenantId, current.id, { is_active: false, deleted_at: now, updated_at: now });
      await cancelPendingDeliveries(ctx.tx, tenantId, current.id, now);
    }
    return { secret: null };
  }
  if (!current) {
    const id = randomUUID();
    const secret = generateWebhookSecret();
    await insertEndpoint(ctx.tx, {
      id,
      tenant_id: tenantId,
      kind: 'tenant_profile',
      url,
      description: `webhook_url of the tenant profile (${environment})`,
      events: [ALL_EVENTS],
      environment,
      secret_encrypted: sealWebhookSecret(ctx.deps.config.appKey!, id, secret),
      secret_last4: secret.slice(-4),
      headers_encrypted: null,
      header_names: [],
      timeout_seconds: 15,
      retry_count: null,
      is_active: true,
      created_at: now,
      updated_at: now,
    });
    return { secret };
  }
  if (current.url !== url || !current.is_active) {
    await updateEndpoint(ctx.tx, tenantId, current.id, {
      url,
      is_active: true,
      disabled_at: null,
      disabled_reason: null,
      failure_count: 0,
      failing_since: null,
      updated_at: now,
    });
  }
  return { secret: null };
}

/** A new secret for the tenant's webhook URL of one environment; the old one stops at once. Null when no URL is set. */
export async function regenerateTenantWebhookSecretOf(
  ctx: OperationContext,
  tenantId: string,
  environment: Environment,
): Promise<{ url: string; secret: string } | null> {
  const current = await tenantProfileEndpoint(ctx.tx, tenantId, environment);
  if (!current) return null;
  const secret = generateWebhookSecret();
  await updateEndpoint(ctx.tx, tenantId, current.id, {
    secret_encrypted: sealWebhookSecret(ctx.deps.config.appKey!, current.id, secret),
    secret_last4: secret.slice(-4),
    updated_at: ctx.clock.now(),
  });
  return { url: current.url, secret };
}
