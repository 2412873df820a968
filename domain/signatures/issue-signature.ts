import { randomUUID } from 'node:crypto';
import type { CreateSignatureInput } from '../../schemas/signatures.js';
import { actorOf, appendFirstAuditEntries } from '../audit/index.js';
import { chargeFor } from '../billing/index.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { callbackTokenHash, callbackTokenOf } from './provider/callback-token.js';
import { providerForNewRequest } from './provider/provider-choice.js';
import type { PreparedSignature } from './signature-checks.js';
import { signatureOwnerOf } from './signature-owner.js';
import { insertSignatureRequest } from './signature-store.js';
import { type SignatureView, toSignatureView } from './signature-view.js';
import { signingTokenHash, signingTokenOf } from './signing-token.js';

/** Default validity of a request, and the furthest deadline accepted (spec "Limits"). */
export const DEFAULT_VALIDITY_DAYS = 30;
const MAX_VALIDITY_DAYS = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Creates a signature request in the operation's transaction, all or nothing: the deadline check
 * (422), who carries it (503 when production has no provider), the 1.20 EUR debit in production
 * (402 when the balance is short), the request, its signers (each with its signing-page token,
 * stored as a hash), the original document, the first audit entry, `signature.created`, and for
 * Openapi the job that hands the request over.
 */
export async function issueSignature(
  ctx: OperationContext,
  input: CreateSignatureInput,
  prepared: PreparedSignature,
): Promise<SignatureView> {
  const owner = signatureOwnerOf(ctx.caller);
  const now = ctx.clock.now();
  const expiresAt = deadlineOf(input.expires_at, now);
  const id = randomUUID();
  const actor = actorOf(ctx.caller);
  const provider = await providerForNewRequest(ctx.tx, ctx.deps.config, owner.environment);
  const charged = await chargeFor(ctx, {
    tenantId: owner.tenantId,
    environment: owner.environment,
    kind: 'signature',
    referenceType: 'signature',
    referenceId: id,
    actor: actor.credential_id,
    now,
  });
  const signers = input.signers.map((s, i) => {
    const signerId = randomUUID();
    return {
      id: signerId,
      ordinal: i + 1,
      firstName: s.first_name.trim(),
      lastName: s.last_name.trim(),
      email: s.email ?? null,
      phone: s.phone ?? null,
      authMethod: s.auth_method,
      message: s.message ?? null,
      signingTokenHash: signingTokenHash(signingTokenOf(ctx.deps.config, signerId)),
    };
  });
  const stored = await insertSignatureRequest(
    ctx.tx,
    {
      id,
      owner,
      externalId: input.external_id ?? null,
      title: input.title,
      description: input.description ?? null,
      documentName: input.document_name,
      documentSize: prepared.document.length,
      documentSha256: prepared.sha256,
      pageCount: prepared.pageCount,
      amountCharged: charged.toFixed(2),
      uiConfig: prepared.uiConfig,
      signatureOptions: input.signature_options ?? null,
      positions: prepared.positions,
      redirectCompleteUrl: input.redirect_complete_url ?? null,
      redirectCancelUrl: input.redirect_cancel_url ?? null,
      archiveEnabled: input.archive_enabled ?? null,
      provider,
      callbackTokenHash: provider === 'openapi' ? callbackTokenHash(callbackTokenOf(ctx.deps.config, id)) : null,
      expiresAt,
      createdBy: actor,
      now,
    },
    signers,
    { filename: input.document_name, content: prepared.document, sha256: prepared.sha256 },
  );
  const r = stored.request;
  await appendFirstAuditEntries(ctx.tx, [
    {
      tenantId: r.tenant_id,
      environment: r.environment,
      entityType: 'signature',
      entityId: id,
      action: 'signature.created',
      details: {
        title: r.title,
        document_name: r.document_name,
        document_sha256: r.document_sha256,
        signers: stored.signers.length,
        expires_at: r.expires_at.toISOString(),
        amount_charged: r.amount_charged,
      },
      actorIp: ctx.caller.ip ?? null,
      actor,
      now,
      first: true,
    },
  ]);
  if (provider === 'openapi') {
    await ctx.jobs.send('submit-signature', { tenantId: r.tenant_id, signatureId: id });
  }
  await ctx.events.emit('signature.created', eventData(stored.request, stored.signers.length), {
    tenantId: r.tenant_id,
    environment: r.environment,
  });
  return toSignatureView(ctx.deps.config, stored);
}

/** The deadline: now + 30 days by default; in the future and at most a year ahead. */
function deadlineOf(value: string | undefined, now: Date): Date {
  if (value === undefined) return new Date(now.getTime() + DEFAULT_VALIDITY_DAYS * DAY_MS);
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw AppError.validation({ expires_at: ['must be a date-time'] });
  if (at.getTime() <= now.getTime()) throw AppError.validation({ expires_at: ['must be in the future'] });
  if (at.getTime() > now.getTime() + MAX_VALIDITY_DAYS * DAY_MS) {
    throw AppError.validation({ expires_at: ['must be at most one year ahead'] });
  }
  return at;
}

/** The data of a `signature.*` event. */
export function eventData(
  r: {
    id: string;
    external_id: string | null;
    title: string;
    status: string;
    sub_tenant_id: string | null;
    expires_at: Date;
  },
  signers: number,
) {
  return {
    id: r.id,
    external_id: r.external_id,
    title: r.title,
    status: r.status,
    sub_tenant_id: r.sub_tenant_id,
    signers_count: signers,
    expires_at: r.expires_at.toISOString(),
  };
}
