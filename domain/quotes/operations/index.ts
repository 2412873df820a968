/** The operations of the quotes context: what routes, job handlers and the CLI call through execute(). */

export { acceptQuote } from './accept-quote.js';
export { cancelQuote } from './cancel-quote.js';
export { checkQuoteIntegrity } from './check-quote-integrity.js';
export { convertQuoteToBalance } from './convert-quote-to-balance.js';
export { convertQuoteToDeposit } from './convert-quote-to-deposit.js';
export { createQuote } from './create-quote.js';
export { downloadQuotePdf } from './download-quote-pdf.js';
export { duplicateQuote } from './duplicate-quote.js';
export { expireQuote } from './expire-quote.js';
export { exportQuoteAudit } from './export-quote-audit.js';
export { getAdminQuote } from './get-admin-quote.js';
export { getAdminQuoteStats } from './get-admin-quote-stats.js';
export { getQuote } from './get-quote.js';
export { getQuoteAuditLog } from './get-quote-audit-log.js';
export { getQuoteMail } from './get-quote-mail.js';
export { listAdminQuotes } from './list-admin-quotes.js';
export { listQuotes } from './list-quotes.js';
export { refuseQuote } from './refuse-quote.js';
export { regenerateQuoteLink } from './regenerate-quote-link.js';
export { revokeQuoteLink } from './revoke-quote-link.js';
export { sendQuote } from './send-quote.js';
export { updateQuote } from './update-quote.js';
export { viewQuotePage } from './view-quote-page.js';
