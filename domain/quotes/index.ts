/**
 * Public surface of the quotes context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export { PUBLIC_LINK_TTL_DAYS } from './quote-link.js';
export { quoteMail } from './quote-mail.js';
