import { type LinkCredentialClaims, linkCredentialOf, openToken, signToken } from '../auth/index.js';
import { DOWNLOAD_LINK_TTL_SECONDS } from '../invoicing/index.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { publicBaseUrlOf } from '../users/index.js';
import { signatureReaderOf } from './signature-owner.js';
import type { SignatureFileKind } from './signature-row.js';
import { findReadableSignature } from './signature-store.js';

/** Its own purpose: an invoice or credit-note link's token can never open a signature file. */
const PURPOSE = 'signature-file';

interface FileClaims extends Record<string, unknown>, LinkCredentialClaims {
  signature_id: string;
  tenant_id: string;
  kind: SignatureFileKind;
}

const signing = (ctx: OperationContext, now: Date) => ({ key: ctx.deps.config.appKey, purpose: PURPOSE, now });

/**
 * A 15-minute link to one file of a request the caller may read: the original at any time, the
 * signed PDF and the proof once the request is completed (409 SIGNATURE_NOT_COMPLETED before).
 */
export async function signatureDownloadLink(
  ctx: OperationContext,
  id: string,
  kind: SignatureFileKind,
): Promise<{ url: string; expires_at: string }> {
  const { request: r } = await findReadableSignature(ctx.tx, signatureReaderOf(ctx.caller), id);
  if (kind !== 'original' && r.status !== 'completed') {
    throw new AppError(
      'SIGNATURE_NOT_COMPLETED',
      `Signature request ${r.id} is ${r.status}: its signed document and proof file exist once every signer has signed.`,
      { body: { status: r.status } },
    );
  }
  const present = await ctx
    .tx('signature_documents')
    .where({ signature_request_id: r.id, kind })
    .first<{ id: string } | undefined>('id');
  if (!present) throw new AppError('FILE_NOT_FOUND', `Signature request ${r.id} has no ${kind} file yet.`);
  const now = ctx.clock.now();
  const claims: FileClaims = { signature_id: r.id, tenant_id: r.tenant_id, kind, ...linkCredentialOf(ctx.caller) };
  const token = signToken(signing(ctx, now), claims, DOWNLOAD_LINK_TTL_SECONDS);
  const expiresAt = new Date((Math.floor(now.getTime() / 1000) + DOWNLOAD_LINK_TTL_SECONDS) * 1000);
  return {
    url: `${publicBaseUrlOf(ctx.deps.config)}/api/v1/files/signatures/${token}`,
    expires_at: expiresAt.toISOString(),
  };
}

/** The claims of a signature file link: 403 when altered or not ours, 410 once its 15 minutes are over. */
export function openSignatureLink(ctx: OperationContext, token: string): FileClaims {
  const opened = openToken<FileClaims>(signing(ctx, ctx.clock.now()), token);
  if (!opened || typeof opened.claims.signature_id !== 'string' || typeof opened.claims.tenant_id !== 'string') {
    throw new AppError('DOWNLOAD_LINK_INVALID', 'This download link is not valid. Ask the API for a new one.');
  }
  if (opened.expired) {
    throw new AppError(
      'DOWNLOAD_LINK_EXPIRED',
      `This download link expired at ${new Date(opened.claims.exp * 1000).toISOString()} (links last 15 minutes). Ask the API for a new one: GET /v1/signatures/{id}/download/{type}.`,
    );
  }
  return opened.claims;
}
