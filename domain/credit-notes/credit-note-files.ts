import { type LinkCredentialClaims, linkCredentialOf } from '../auth/link-credential.js';
import { openToken, signToken } from '../auth/signed-token.js';
import { DOWNLOAD_LINK_TTL_SECONDS } from '../invoicing/invoice-files.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { publicBaseUrlOf } from '../users/public-url.js';
import type { CreditNoteFileKind } from './credit-note-documents.js';
import type { CreditNoteRow } from './credit-note-row.js';

/** Its own purpose: an invoice link's token can never open a credit-note file, nor the reverse. */
const PURPOSE = 'credit-note-file';

interface FileClaims extends Record<string, unknown>, LinkCredentialClaims {
  credit_note_id: string;
  tenant_id: string;
  kind: CreditNoteFileKind;
}

const signing = (ctx: OperationContext, now: Date) => ({ key: ctx.deps.config.appKey, purpose: PURPOSE, now });

/** 409 when generating the files failed, as for invoices (pending files are rendered on demand first). */
export function assertDocumentsReady(c: CreditNoteRow): void {
  if (c.documents_status === 'failed') {
    throw new AppError(
      'DOCUMENT_GENERATION_FAILED',
      `Generating the files of credit note ${c.credit_note_number} failed: ${c.documents_error ?? 'no reason recorded'}. Contact support with the credit note id.`,
      { body: { documents_status: 'failed' } },
    );
  }
}

/** A link that serves one file of a credit note without credentials for 15 minutes. */
export function signCreditNoteLink(
  ctx: OperationContext,
  c: Pick<CreditNoteRow, 'id' | 'tenant_id'>,
  kind: CreditNoteFileKind,
): { url: string; expires_at: string } {
  const now = ctx.clock.now();
  const claims: FileClaims = { credit_note_id: c.id, tenant_id: c.tenant_id, kind, ...linkCredentialOf(ctx.caller) };
  const token = signToken(signing(ctx, now), claims, DOWNLOAD_LINK_TTL_SECONDS);
  const expiresAt = new Date((Math.floor(now.getTime() / 1000) + DOWNLOAD_LINK_TTL_SECONDS) * 1000);
  return {
    url: `${publicBaseUrlOf(ctx.deps.config)}/api/v1/files/credit-notes/${token}`,
    expires_at: expiresAt.toISOString(),
  };
}

/** The claims of a credit-note link: 403 when altered or not ours, 410 once its 15 minutes are over. */
export function openCreditNoteLink(ctx: OperationContext, token: string): FileClaims {
  const opened = openToken<FileClaims>(signing(ctx, ctx.clock.now()), token);
  if (!opened || typeof opened.claims.credit_note_id !== 'string' || typeof opened.claims.tenant_id !== 'string') {
    throw new AppError('DOWNLOAD_LINK_INVALID', 'This download link is not valid. Ask the API for a new one.');
  }
  if (opened.expired) {
    throw new AppError(
      'DOWNLOAD_LINK_EXPIRED',
      `This download link expired at ${new Date(opened.claims.exp * 1000).toISOString()} (links last 15 minutes). Ask the API for a new one: GET /v1/credit-notes/{id}/download.`,
    );
  }
  return opened.claims;
}
