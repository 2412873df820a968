import type { WebhookDisabledNotice, WebhookDisabledNoticeInput } from '../../../schemas/webhook-deliveries.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { endpointById } from '../endpoint-store.js';

/** Schema `WebhookDisabledNotice`: the type comes from the schema. */
export type { WebhookDisabledNotice };

/**
 * What to tell the owner of an endpoint the service disabled, and where: a tenant's technical
 * e-mail (else its billing e-mail, else its sign-in e-mail); a dashboard user's own e-mail.
 */
export const getWebhookDisabledNotice = defineQuery<WebhookDisabledNoticeInput, WebhookDisabledNotice>({
  name: 'get_webhook_disabled_notice',
  summary: 'The technical e-mail telling an owner that the service disabled one of its webhook endpoints.',
  input: 'WebhookDisabledNoticeInput',
  output: 'WebhookDisabledNotice',
  callers: ['system'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId!;
    const endpoint = await endpointById(ctx.tx, tenantId, input.endpoint_id);
    if (!endpoint?.disabled_at || !endpoint.disabled_reason) {
      throw new AppError('NOT_FOUND', `Webhook endpoint ${input.endpoint_id} is not disabled.`, { retryable: false });
    }
    const tenant = await ctx
      .tx('tenants')
      .where({ id: tenantId })
      .first<{ kind: string; technical_email: string | null; billing_email: string | null; email: string | null }>([
        'kind',
        'technical_email',
        'billing_email',
        'email',
      ]);
    const user =
      tenant?.kind === 'workspace'
        ? await ctx.tx('users').where({ tenant_id: tenantId }).orderBy('created_at').first<{ email: string }>('email')
        : undefined;
    return {
      to: user?.email ?? tenant?.technical_email ?? tenant?.billing_email ?? tenant?.email ?? null,
      url: endpoint.url,
      reason: endpoint.disabled_reason,
      disabled_at: endpoint.disabled_at.toISOString(),
      endpoint_id: endpoint.id,
    };
  },
});
