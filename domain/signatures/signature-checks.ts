import { createHash } from 'node:crypto';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { type CreateSignatureInput, SIGNATURE_DOCUMENT_MAX_BYTES } from '../../schemas/signatures.js';
import { AppError } from '../shared/app-error.js';
import type { Deps } from '../shared/deps.js';
import type { Logger } from '../shared/logger.js';
import { checkOutboundUrl } from '../shared/outbound-url.js';
import { type PdfInfoPool, pdfInfoPool } from './pdf/index.js';
import type { StoredPosition } from './signature-row.js';

/** A4 at 72 dpi: the page size when neither the position nor the PDF gives one. */
const A4 = { width: 595, height: 842 };

/** What a creation body turned into once every check that needs no database passed. */
export interface PreparedSignature {
  document: Buffer;
  sha256: string;
  pageCount: number;
  positions: StoredPosition[];
  uiConfig: Record<string, unknown> | null;
}

type Problems = Record<string, string[]>;
const add = (problems: Problems, field: string, message: string) => {
  problems[field] = [...(problems[field] ?? []), message];
};

/**
 * The checks of a signature request beyond its schema, outside any transaction (they parse the
 * PDF and may resolve the logo's host): the document is a real PDF of at most 20 MB, each signer
 * has the contact its `auth_method` needs, each position is on a page of the document, the URLs
 * are usable. Every problem is reported at once, as a 422 naming its field. The PDF is read in
 * `pool` (worker threads, under a time and memory budget), off the event loop serving requests.
 */
export async function prepareSignature(
  input: CreateSignatureInput,
  deps: Deps,
  log: Logger,
  pool: PdfInfoPool = pdfInfoPool(),
): Promise<PreparedSignature> {
  const problems: Problems = {};
  const document = decodeDocument(input.document, problems);
  let pages: { width: number; height: number }[] = [];
  if (document) {
    const outcome = await pool.read(document);
    // Not the document's fault: a 503, retryable.
    if (!outcome.ok && outcome.busy)
      throw new AppError('SERVICE_UNAVAILABLE', 'The PDF reader is busy: retry shortly.');
    if (!outcome.ok && outcome.unexpected) log.warn({ fault: outcome.unexpected }, 'signature PDF reader fault');
    if (outcome.ok) pages = outcome.info.pages;
    else add(problems, 'document', `must be a readable PDF: ${outcome.error}`);
  }

  input.signers.forEach((signer, i) => {
    const needsEmail = signer.auth_method === 'email' || signer.auth_method === 'both';
    const needsPhone = signer.auth_method === 'sms' || signer.auth_method === 'both';
    if (needsEmail && !signer.email)
      add(problems, `signers.${i}.email`, `is required when auth_method is ${signer.auth_method}`);
    if (needsPhone && !signer.phone)
      add(problems, `signers.${i}.phone`, `is required when auth_method is ${signer.auth_method}`);
    if (signer.phone && !isValidPhoneNumber(signer.phone)) {
      add(problems, `signers.${i}.phone`, 'must be a valid phone number in international E.164 form (+33612345678)');
    }
  });

  const positions: StoredPosition[] = [];
  (input.signature_positions ?? []).forEach((p, i) => {
    if (pages.length > 0 && p.page > pages.length) {
      add(
        problems,
        `signature_positions.${i}.page`,
        `must be at most ${pages.length}: the document has ${pages.length} page${pages.length > 1 ? 's' : ''}`,
      );
    }
    const size = pages[p.page - 1] ?? A4;
    positions.push({
      page: p.page,
      x: p.x,
      y: p.y,
      unit: p.unit ?? 'percent',
      width: p.width ?? null,
      height: p.height ?? null,
      page_width_px: p.page_width_px ?? size.width,
      page_height_px: p.page_height_px ?? size.height,
    });
  });

  const uiConfig = input.ui_config ? { ...input.ui_config } : null;
  const allowPrivate = deps.config.allowPrivateUrls;
  for (const field of ['sidebar_logo', 'logo_url'] as const) {
    const value = input.ui_config?.[field];
    if (value === undefined) continue;
    const problem = await checkOutboundUrl(value, { allowPrivate });
    if (problem) add(problems, `ui_config.${field}`, problem);
  }
  if (uiConfig && input.ui_config?.iframe_ancestors) {
    uiConfig.iframe_ancestors = input.ui_config.iframe_ancestors.map((value, i) => {
      const origin = originOf(value, allowPrivate);
      if (typeof origin !== 'string') add(problems, `ui_config.iframe_ancestors.${i}`, origin.problem);
      return typeof origin === 'string' ? origin : value;
    });
  }
  for (const field of ['redirect_complete_url', 'redirect_cancel_url'] as const) {
    const value = input[field];
    if (value !== undefined && !isWebUrl(value)) add(problems, field, 'must be an absolute http or https URL');
  }
  const timezone = input.signature_options?.timezone;
  if (timezone !== undefined && !isTimeZone(timezone)) {
    add(problems, 'signature_options.timezone', 'must be an IANA time zone name (Europe/Paris)');
  }

  if (Object.keys(problems).length > 0 || !document) throw AppError.validation(problems);
  return {
    document,
    sha256: createHash('sha256').update(document).digest('hex'),
    pageCount: pages.length,
    positions,
    uiConfig,
  };
}

/** The document's bytes from base64 (a `data:` URL prefix is tolerated); null after a problem. */
function decodeDocument(value: string, problems: Problems): Buffer | null {
  const base64 = value.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64) || base64.length % 4 === 1) {
    add(problems, 'document', 'must be the PDF encoded in base64');
    return null;
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) {
    add(problems, 'document', 'must not be empty');
    return null;
  }
  if (bytes.length > SIGNATURE_DOCUMENT_MAX_BYTES) {
    add(problems, 'document', `must be at most 20 MB (it is ${(bytes.length / 1024 / 1024).toFixed(1)} MB)`);
    return null;
  }
  return bytes;
}

const isWebUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
};

/** An origin allowed to frame the signing page (it goes into CSP `frame-ancestors`), or why not. */
function originOf(value: string, allowPrivate: boolean): string | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'must be an absolute https URL' };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return { problem: 'must be an https URL' };
  }
  if (url.username || url.password) return { problem: 'must not contain credentials' };
  return url.origin;
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
