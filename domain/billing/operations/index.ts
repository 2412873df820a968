/** The operations of the billing context: what routes, job handlers and the CLI call through execute(). */

export { creditBalance } from './credit-balance.js';
export { debitBalance } from './debit-balance.js';
export { downloadBillingInvoice } from './download-billing-invoice.js';
export { generateBillingInvoiceDocuments } from './generate-billing-invoice-documents.js';
export { getBalance } from './get-balance.js';
export { getBillingInvoice } from './get-billing-invoice.js';
export { getBillingUsage } from './get-billing-usage.js';
export { getTenantBalance } from './get-tenant-balance.js';
export { issueBillingInvoice } from './issue-billing-invoice.js';
export { listBillingInvoices } from './list-billing-invoices.js';
export { listBillingTransactions } from './list-billing-transactions.js';
export { runMonthlyBilling } from './run-monthly-billing.js';
export { updateBalanceSettings } from './update-balance-settings.js';
