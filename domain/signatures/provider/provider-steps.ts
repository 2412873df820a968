import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { ProviderSignatureState, SignatureHandover } from '../../../schemas/signature-provider-jobs.js';
import type { Config } from '../../shared/config.js';
import type { OperationContext } from '../../shared/operation.js';
import { eventData } from '../issue-signature.js';
import { readPdfInfo } from '../pdf/index.js';
import { auditSignature } from '../signature-audit.js';
import { placementsOf } from '../signature-completion.js';
import { failSignatureRequest } from '../signature-failure.js';
import type { SignatureRequestRow, SignerRow } from '../signature-row.js';
import { findSignatureDocument } from '../signature-store.js';
import { signerData } from '../signing-steps.js';
import { finishSignatureRequest, type SigningSigner, storeSignatureDocument, updateSigner } from '../signing-store.js';
import { callbackUrlOf } from './callback-token.js';
import { sealProviderUrl } from './provider-url.js';
import type { ProviderSignature } from './signature-provider.js';

const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** The provider's answer, as the job schemas carry it. */
export const stateOf = (p: ProviderSignature): ProviderSignatureState => ({
  id: p.id,
  state: p.state,
  signers: p.signers.map((s) => ({ id: s.id, state: s.state, url: s.url, signed_at: s.signedAt, reason: s.reason })),
  error: p.error ? `${p.error.number ?? ''} ${p.error.message}`.trim() : null,
});

/**
 * The request as Openapi takes it: the original PDF, the signers with their OTP channels and their
 * blocks (the same placement as the signing page's, turned to points from the page's top-left),
 * the callback URL with its token, and the page options.
 */
export async function handoverOf(
  tx: Knex,
  config: Config,
  r: SignatureRequestRow,
  signers: SignerRow[],
): Promise<NonNullable<SignatureHandover['request']>> {
  const original = await findSignatureDocument(tx, r.id, 'original');
  if (!original) throw new Error(`signature request ${r.id} has no original document`);
  const pages = readPdfInfo(original.content).pages;
  const rects = placementsOf(r.positions, signers.length, pages);
  const mode = r.signature_options?.signature_mode;
  const ancestors = r.ui_config?.iframe_ancestors;
  return {
    document: original.content.toString('base64'),
    signers: signers.map((s, k) => ({
      name: s.first_name,
      surname: s.last_name,
      email: s.email,
      mobile: s.phone,
      authentication: s.auth_method === 'both' ? ['email', 'sms'] : [s.auth_method],
      message: s.message,
      signatures: rects[k].map((rect) => ({
        page: rect.page,
        x: rect.x,
        y: pages[rect.page - 1].height - rect.y - rect.height,
      })),
    })),
    callback_url: callbackUrlOf(config, r.id),
    signature_mode: mode === 'typed' ? ['typed'] : mode === 'drawn' ? ['drawn'] : ['typed', 'drawn'],
    complete_url: r.redirect_complete_url,
    cancel_url: r.redirect_cancel_url,
    iframe_ancestors: Array.isArray(ancestors) ? ancestors.filter((a): a is string => typeof a === 'string') : [],
  };
}

/** Records the provider's request: its id and state, each signer's id, state and signing link (sealed). */
export async function recordHandover(
  ctx: OperationContext,
  r: SignatureRequestRow,
  signers: SignerRow[],
  p: ProviderSignatureState,
): Promise<void> {
  const now = ctx.clock.now();
  const appKey = ctx.deps.config.appKey;
  await ctx.tx('signature_requests').where({ id: r.id }).update({
    provider_id: p.id,
    provider_state: p.state,
    provider_submitted_at: now,
    provider_synced_at: now,
    provider_error: null,
    updated_at: now,
  });
  for (const [k, s] of signers.entries()) {
    const theirs = p.signers[k];
    if (!theirs) continue;
    await ctx
      .tx('signature_signers')
      .where({ id: s.id })
      .update({
        provider_signer_id: theirs.id || null,
        provider_state: theirs.state,
        provider_url_sealed: theirs.url && appKey ? sealProviderUrl(appKey, s.id, theirs.url) : null,
        updated_at: now,
      });
  }
  await auditSignature(ctx, r, 'signature.submitted', {
    provider: 'openapi',
    provider_id: p.id,
    provider_state: p.state,
  });
}

/**
 * Applies the provider's state to a locked request, idempotently: each signer the provider reports
 * signed (and we do not) is signed, with `signature.signed`; a refusal refuses the request
 * (`signature.refused`); DONE with the files stores the signed PDF and the provider's audit trail
 * as the proof and completes it (`signature.completed`); ERROR fails it and refunds it
 * (`signature.failed`). A request no longer pending only records the state. Returns what changed.
 */
export async function applyProviderState(
  ctx: OperationContext,
  r: SignatureRequestRow,
  signers: SigningSigner[],
  p: ProviderSignatureState,
  files: { signed: Buffer; proof: Buffer } | null,
): Promise<string> {
  const now = ctx.clock.now();
  await ctx
    .tx('signature_requests')
    .where({ id: r.id })
    .update({
      provider_state: p.state,
      provider_synced_at: now,
      provider_error: p.state === 'ERROR' ? (p.error ?? 'error') : null,
    });
  if (r.status !== 'pending') return `unchanged (${r.status})`;
  if (p.state === 'ERROR') {
    const reason = `The signature provider reported an error: ${p.error ?? 'no detail given'}`;
    await failSignatureRequest(ctx, r, signers.length, reason, { provider: 'openapi', provider_state: p.state });
    return 'failed';
  }
  const changes: string[] = [];
  const event = { tenantId: r.tenant_id, environment: r.environment };
  const after = [...signers];
  for (const [k, s] of signers.entries()) {
    const theirs = p.signers.find((t) => t.id && t.id === s.provider_signer_id) ?? p.signers[k];
    if (!theirs || s.status !== 'pending' || theirs.state === 'pending') continue;
    if (theirs.state === 'signed') {
      const signedAt = theirs.signed_at ? new Date(theirs.signed_at) : now;
      await updateSigner(ctx.tx, s.id, { status: 'signed', signed_at: signedAt, provider_state: 'signed' }, now);
      after[k] = { ...s, status: 'signed', signed_at: signedAt };
      await auditSignature(ctx, r, 'signature.signed', { signer_id: s.id, provider: 'openapi' });
      await ctx.events.emit(
        'signature.signed',
        { ...eventData(r, signers.length), signer: signerData(after[k]) },
        event,
      );
      changes.push(`signer ${k + 1} signed`);
    } else {
      const why = theirs.reason ?? 'Refused on the signature provider’s signing page.';
      await updateSigner(
        ctx.tx,
        s.id,
        { status: 'refused', refused_at: now, refusal_reason: why, provider_state: 'refused' },
        now,
      );
      const refused = await finishSignatureRequest(ctx.tx, r.id, { status: 'refused', reason: why }, now);
      await auditSignature(ctx, r, 'signature.refused', { signer_id: s.id, reason: why, provider: 'openapi' });
      await ctx.events.emit(
        'signature.refused',
        { ...eventData(refused, signers.length), refusal_reason: why, signer: signerData({ ...s, status: 'refused' }) },
        event,
      );
      return 'refused';
    }
  }
  if (p.state === 'DONE' && files && after.every((s) => s.status === 'signed')) {
    const original = await findSignatureDocument(ctx.tx, r.id, 'original');
    const base = (original?.filename ?? r.document_name).replace(/\.pdf$/i, '');
    await storeSignatureDocument(
      ctx.tx,
      r,
      {
        kind: 'signed',
        filename: original?.filename ?? r.document_name,
        content: files.signed,
        sha256: sha256(files.signed),
      },
      now,
    );
    await storeSignatureDocument(
      ctx.tx,
      r,
      { kind: 'proof', filename: `${base}-proof.pdf`, content: files.proof, sha256: sha256(files.proof) },
      now,
    );
    const completed = await finishSignatureRequest(ctx.tx, r.id, { status: 'completed' }, now);
    await auditSignature(ctx, r, 'signature.completed', {
      signers: signers.length,
      provider: 'openapi',
      signed_sha256: sha256(files.signed),
    });
    await ctx.events.emit('signature.completed', eventData(completed, signers.length), event);
    return 'completed';
  }
  return changes.length ? changes.join(', ') : 'unchanged';
}
