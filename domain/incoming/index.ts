/**
 * Public surface of the incoming context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { INCOMING_STATUSES, PAYMENT_MEANS_CODES, REASON_CODES } from './incoming-codes.js';
export { INCOMING_FILE_MAX_BYTES } from './parse-incoming-file.js';
