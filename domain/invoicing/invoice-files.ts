import { type LinkCredentialClaims, linkCredentialOf } from '../auth/link-credential.js';
import { openToken, signToken } from '../auth/signed-token.js';
import { AppError } from '../shared/app-error.js';
import type { OperationContext } from '../shared/operation.js';
import { publicBaseUrlOf } from '../users/public-url.js';
import type { DocumentKind, InvoiceDocumentInfo } from './document-store.js';
import { invoiceFilesOnDemand } from './invoice-files-on-demand.js';
import type { InvoiceRow } from './invoice-row.js';

/** `original`, `converted`, `pdf` (spec "Invoices") and `xml`, `facturx` (spec "Sandbox"). */
export type DownloadType = 'original' | 'converted' | 'pdf' | 'xml' | 'facturx';

/** Download links are valid 15 minutes (spec "Limits"). */
export const DOWNLOAD_LINK_TTL_SECONDS = 15 * 60;
const PURPOSE = 'invoice-file';

/** What a download link names, signed: the invoice, its tenant, the stored kind and who asked. */
interface FileClaims extends Record<string, unknown>, LinkCredentialClaims {
  invoice_id: string;
  tenant_id: string;
  kind: DocumentKind;
}

/** The file an output format produces as its "converted" document. */
const FORMAT_KIND: Record<InvoiceRow['output_format'], DocumentKind> = { facturx: 'facturx', ubl: 'ubl', cii: 'cii' };

/** Stored kinds that answer each type, best first (the Factur-X PDF/A-3 is a readable PDF). */
function candidatesFor(type: DownloadType, invoice: InvoiceRow): DocumentKind[] {
  switch (type) {
    case 'original':
      return ['original'];
    case 'pdf':
      return ['pdf', 'facturx'];
    case 'converted':
      return [FORMAT_KIND[invoice.output_format]];
    case 'xml':
      return invoice.output_format === 'ubl' ? ['ubl', 'cii'] : ['cii', 'ubl'];
    case 'facturx':
      return ['facturx'];
  }
}

/**
 * The stored file that answers a download type, or the error that tells the caller what to do: the
 * original is there from creation on (or never); generated files once rendered (by the document
 * worker, or on demand by the download), unless their rendering failed.
 */
export function chooseDocument(
  invoice: InvoiceRow,
  documents: readonly InvoiceDocumentInfo[],
  type: DownloadType,
): InvoiceDocumentInfo {
  const find = (kinds: DocumentKind[]) =>
    kinds.map((kind) => documents.find((d) => d.kind === kind)).find((d) => d !== undefined);
  if (type === 'original') {
    const original = find(['original']);
    if (original) return original;
    throw new AppError(
      'FILE_NOT_FOUND',
      `Invoice ${invoice.invoice_number} was created without an original_file: there is no original to download. Use type pdf or converted.`,
    );
  }
  if (invoice.documents_status === 'failed') {
    throw new AppError(
      'DOCUMENT_GENERATION_FAILED',
      `Generating the files of invoice ${invoice.invoice_number} failed: ${invoice.documents_error ?? 'no reason recorded'}. Contact support with the invoice id.`,
      { body: { documents_status: 'failed' } },
    );
  }
  const found = find(candidatesFor(type, invoice));
  if (found) return found;
  if (type === 'xml' || type === 'facturx') {
    const target = type === 'facturx' ? 'facturx' : 'cii';
    throw new AppError(
      'CONVERSION_REQUIRED',
      `Invoice ${invoice.invoice_number} was issued as ${invoice.output_format} and has no ${type} file yet. Convert it first: POST /v1/invoices/convert {"invoice_id": "${invoice.id}", "target_format": "${target}"}.`,
    );
  }
  throw new AppError('FILE_NOT_FOUND', `Invoice ${invoice.invoice_number} has no ${type} file.`);
}

/**
 * A link that serves one file of a readable invoice without credentials for 15 minutes: the
 * signed claims name the invoice, its tenant and the kind chosen now, and the credential that asked:
 * the link serves that file while that credential stays active. Files still pending are rendered
 * first (invoice-files-on-demand.ts), so the caller runs outside any transaction.
 */
export async function issueDownloadLink(
  ctx: OperationContext,
  id: string,
  type: DownloadType,
): Promise<{ url: string; expires_at: string }> {
  const { invoice, documents } = await invoiceFilesOnDemand(ctx, id, type !== 'original');
  return signDownloadLink(ctx, invoice, chooseDocument(invoice, documents, type).kind);
}

/** The signed link to one stored kind of an invoice's files (15 minutes, no credentials). */
export function signDownloadLink(
  ctx: OperationContext,
  invoice: Pick<InvoiceRow, 'id' | 'tenant_id'>,
  kind: DocumentKind,
): { url: string; expires_at: string } {
  const now = ctx.clock.now();
  const claims: FileClaims = {
    invoice_id: invoice.id,
    tenant_id: invoice.tenant_id,
    kind,
    ...linkCredentialOf(ctx.caller),
  };
  const token = signToken(signing(ctx, now), claims, DOWNLOAD_LINK_TTL_SECONDS);
  const expiresAt = new Date((Math.floor(now.getTime() / 1000) + DOWNLOAD_LINK_TTL_SECONDS) * 1000);
  return {
    url: `${publicBaseUrlOf(ctx.deps.config)}/api/v1/files/${token}`,
    expires_at: expiresAt.toISOString(),
  };
}

/** The claims of a download link: 403 when altered or not ours, 410 once its 15 minutes are over. */
export function openDownloadLink(ctx: OperationContext, token: string): FileClaims {
  const opened = openToken<FileClaims>(signing(ctx, ctx.clock.now()), token);
  if (!opened || typeof opened.claims.invoice_id !== 'string' || typeof opened.claims.tenant_id !== 'string') {
    throw new AppError('DOWNLOAD_LINK_INVALID', 'This download link is not valid. Ask the API for a new one.');
  }
  if (opened.expired) {
    throw new AppError(
      'DOWNLOAD_LINK_EXPIRED',
      `This download link expired at ${new Date(opened.claims.exp * 1000).toISOString()} (links last 15 minutes). Ask the API for a new one: GET /v1/invoices/{id}/download/{type}.`,
    );
  }
  return opened.claims;
}

const signing = (ctx: OperationContext, now: Date) => ({ key: ctx.deps.config.appKey, purpose: PURPOSE, now });
