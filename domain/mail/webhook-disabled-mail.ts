import type { MailMessage } from './mailer.js';

export interface WebhookDisabledMail {
  to: string;
  url: string;
  reason: string;
  disabledAt: string;
  endpointId: string;
}

/** The technical e-mail sent when the service disables a webhook endpoint. */
export function webhookDisabledMail(mail: WebhookDisabledMail): MailMessage {
  return {
    to: mail.to,
    subject: 'A webhook endpoint was disabled',
    text: [
      'Hello,',
      '',
      `We stopped sending events to your webhook endpoint ${mail.url}`,
      `(id ${mail.endpointId}) on ${mail.disabledAt}.`,
      '',
      `Reason: ${mail.reason}`,
      '',
      'Events that happen while it is disabled are not delivered to it. Once the endpoint answers',
      'again, re-enable it: PUT /api/v1/webhooks/{id} with {"is_active": true}, or set the webhook_url',
      'again with PUT /api/v1/tenant/me for a tenant URL. POST /api/v1/webhooks/{id}/test checks it first.',
    ].join('\n'),
  };
}
