/**
 * Public surface of the incoming context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { INCOMING_STATUSES, PAYMENT_MEANS_CODES, REASON_CODES } from './incoming-codes.js';
export { INCOMING_FILE_MAX_BYTES } from './parse-incoming-file.js';
/** The hardened PDF object reader, also used to read and update documents sent for signature. */
export { nameOf, numberOf, PdfLexer, type PdfValue, readDict, readValue, textOf } from './pdf-lexer.js';
export { decodeStream, dictOf, type PdfObject, readObjects } from './pdf-objects.js';
