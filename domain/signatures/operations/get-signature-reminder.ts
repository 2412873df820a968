import type { SignatureReminderMails } from '../../../schemas/signatures.js';
import { defineQuery } from '../../shared/operation.js';
import { findReadableSignature } from '../signature-store.js';
import { fullNameOf, signingLinkOf } from '../signature-view.js';

export const getSignatureReminder = defineQuery<{ id: string }, SignatureReminderMails>({
  name: 'get_signature_reminder',
  summary:
    'What a reminder of a signature request sends: its pending signers and their signing links (the reminder job).',
  input: 'SignatureReminderInput',
  output: 'SignatureReminderMails',
  callers: ['system'],
  async run(input, ctx) {
    const tenantId = ctx.caller.tenantId ?? '';
    const { request, signers } = await findReadableSignature(
      ctx.tx,
      { tenantId, environment: null, subTenantId: null },
      input.id,
    );
    return {
      title: request.title,
      environment: request.environment,
      status: request.status,
      signers: signers
        .filter((s) => s.status === 'pending')
        .map((s) => ({
          email: s.email,
          phone: s.phone,
          auth_method: s.auth_method,
          full_name: fullNameOf(s),
          signing_url: signingLinkOf(ctx.deps.config, request, s),
        })),
    };
  },
});
