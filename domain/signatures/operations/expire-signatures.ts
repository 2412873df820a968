import type { EmptyInput } from '../../../schemas/common.js';
import type { ExpiredSignatures } from '../../../schemas/signatures.js';
import { appendAuditEntries } from '../../audit/index.js';
import { defineCommand } from '../../shared/operation.js';
import { eventData } from '../issue-signature.js';
import { lockDueSignatures } from '../signature-store.js';

/** Requests expired per run; a longer backlog is worked by the next runs (every few minutes). */
const BATCH = 500;

export const expireSignatures = defineCommand<EmptyInput, ExpiredSignatures>({
  name: 'expire_signatures',
  summary:
    'Move pending signature requests past their deadline to `expired`, each with its audit entry and a `signature.expired` event (the scheduled expiry job).',
  input: 'EmptyInput',
  output: 'ExpiredSignatures',
  callers: ['system'],
  async run(_input, ctx) {
    const now = ctx.clock.now();
    const due = await lockDueSignatures(ctx.tx, now, BATCH);
    if (due.length === 0) return { expired: 0 };
    const ids = due.map((r) => r.id);
    await ctx.tx('signature_requests').whereIn('id', ids).update({ status: 'expired', updated_at: now });
    const counts = await ctx
      .tx('signature_signers')
      .whereIn('signature_request_id', ids)
      .groupBy('signature_request_id')
      .select<{ signature_request_id: string; n: string }[]>('signature_request_id', ctx.tx.raw('count(*) as n'));
    const signers = new Map(counts.map((c) => [c.signature_request_id, Number(c.n)]));
    await appendAuditEntries(
      ctx.tx,
      due.map((r) => ({
        tenantId: r.tenant_id,
        environment: r.environment,
        entityType: 'signature' as const,
        entityId: r.id,
        action: 'signature.expired',
        details: { expires_at: r.expires_at.toISOString() },
        actorIp: null,
        actor: { kind: 'system', credential_type: null, credential_id: null, user_id: null },
        now,
      })),
    );
    await ctx.events.emitMany(
      due.map((r) => ({
        name: 'signature.expired' as const,
        data: eventData({ ...r, status: 'expired' }, signers.get(r.id) ?? 0),
        options: { tenantId: r.tenant_id, environment: r.environment },
      })),
    );
    for (const r of due.filter((d) => d.provider === 'openapi' && d.provider_id)) {
      await ctx.jobs.send('delete-provider-signature', { tenantId: r.tenant_id, signatureId: r.id });
    }
    return { expired: due.length };
  },
});
