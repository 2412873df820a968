import type { WebhookDisabledNotice, WebhookDisabledNoticeInput } from '../../../schemas/webhook-deliveries.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { tenantContactsOf } from '../../tenants/index.js';
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
    const c = await tenantContactsOf(ctx.tx, tenantId);
    return {
      to: c.user ?? c.technical ?? c.billing ?? c.account,
      url: endpoint.url,
      reason: endpoint.disabled_reason,
      disabled_at: endpoint.disabled_at.toISOString(),
      endpoint_id: endpoint.id,
    };
  },
});
