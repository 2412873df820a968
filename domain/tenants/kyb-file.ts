import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../shared/app-error.js';
import type { Logger } from '../shared/logger.js';
import { KYB_DOCUMENT_MAX_BYTES, type KybContentType } from './kyb-document.js';
import { kybPdfPool } from './kyb-pdf-pool.js';

export interface KybFile {
  filename: string;
  contentType: KybContentType;
  content: Buffer;
  sha256: string;
}

const refuse = (message: string) => AppError.validation({ document: [message] });

const IMAGE_TYPES: Record<string, KybContentType> = { 'image/jpeg': 'image/jpeg', 'image/png': 'image/png' };

/**
 * Decodes an uploaded KYB document and decides its type from its bytes, never from its name: JPG
 * and PNG by their signature (file-type), a PDF by its signature and then by reading it, in a
 * worker thread under a time and memory budget (kyb-pdf-pool.ts). Anything else is a 422 on
 * `document`. Runs before the transaction opens.
 */
export async function readKybFile(upload: { filename: string; content: string }, log: Logger): Promise<KybFile> {
  const content = Buffer.from(upload.content, 'base64');
  if (content.length === 0) throw refuse('is empty');
  if (content.length > KYB_DOCUMENT_MAX_BYTES) throw refuse('must be at most 10 MB');
  const detected = await fileTypeFromBuffer(content);
  const filename = upload.filename.replace(/[^\w.\- ]+/g, '_').slice(0, 200) || 'document';
  const sha256 = createHash('sha256').update(content).digest('hex');
  const image = detected ? IMAGE_TYPES[detected.mime] : undefined;
  if (image) return { filename, contentType: image, content, sha256 };
  if (detected?.mime !== 'application/pdf') {
    throw refuse(`must be a PDF, JPG or PNG file (its content looks like ${detected?.mime ?? 'none of them'})`);
  }
  const outcome = await kybPdfPool().check(content);
  if (!outcome.ok && outcome.busy) throw new AppError('SERVICE_UNAVAILABLE', 'The PDF reader is busy: retry shortly.');
  if (!outcome.ok && outcome.unexpected) log.warn({ fault: outcome.unexpected }, 'KYB PDF reader fault');
  if (!outcome.ok) throw refuse(`must be a readable PDF: ${outcome.error}`);
  return { filename, contentType: 'application/pdf', content, sha256 };
}
