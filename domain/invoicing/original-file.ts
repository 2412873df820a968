import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../shared/app-error.js';

/** Spec "Invoice (creation body)": `original_file`, pdf or xml, at most 10240 KB. */
export const ORIGINAL_FILE_MAX_BYTES = 10 * 1024 * 1024;

export interface OriginalFile {
  filename: string;
  contentType: 'application/pdf' | 'application/xml';
  content: Buffer;
}

const refuse = (message: string) => AppError.validation({ original_file: [message] });

/** An XML document by its content: optional BOM and blanks, then a declaration or an element; no DTD (XXE). */
function looksLikeXml(content: Buffer): boolean {
  const head = content
    .subarray(0, 4096)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (!/^<(\?xml[\s?]|[A-Za-z_])/.test(head)) return false;
  return !content.includes(0);
}

/**
 * Decodes the uploaded file and decides its type from its bytes, never from its name: a PDF by
 * its signature (file-type), an XML document by its first characters. Anything else is a 422.
 * A DOCTYPE is refused: the service never expands external entities.
 */
export async function readOriginalFile(upload: { filename: string; content: string }): Promise<OriginalFile> {
  const content = Buffer.from(upload.content, 'base64');
  if (content.length === 0) throw refuse('is empty');
  if (content.length > ORIGINAL_FILE_MAX_BYTES) throw refuse('must be at most 10 MB (10240 KB)');
  const detected = await fileTypeFromBuffer(content);
  const filename = upload.filename.replace(/[^\w.\- ]+/g, '_').slice(0, 200) || 'original';
  if (detected?.mime === 'application/pdf') return { filename, contentType: 'application/pdf', content };
  if ((detected === undefined || detected.mime === 'application/xml') && looksLikeXml(content)) {
    if (/<!DOCTYPE/i.test(content.subarray(0, 65536).toString('utf8'))) throw refuse('must not declare a DOCTYPE');
    return { filename, contentType: 'application/xml', content };
  }
  throw refuse(`must be a PDF or an XML file (its content looks like ${detected?.mime ?? 'neither'})`);
}
