/** The operations of the billing context: what routes, job handlers and the CLI call through execute(). */

export { attachCheckoutSession } from './attach-checkout-session.js';
export { confirmTopUp } from './confirm-top-up.js';
export { createTopUp } from './create-top-up.js';
export { creditBalance } from './credit-balance.js';
export { debitBalance } from './debit-balance.js';
export { downloadBillingInvoice } from './download-billing-invoice.js';
export { findTopUpOperation } from './find-top-up.js';
export { generateBillingInvoiceDocuments } from './generate-billing-invoice-documents.js';
export { getBalance } from './get-balance.js';
export { getBillingContact } from './get-billing-contact.js';
export { getBillingInvoice } from './get-billing-invoice.js';
export { getBillingUsage } from './get-billing-usage.js';
export { getTenantBalance } from './get-tenant-balance.js';
export { issueBillingInvoice } from './issue-billing-invoice.js';
export { listBillingInvoices } from './list-billing-invoices.js';
export { listBillingTransactions } from './list-billing-transactions.js';
export { prepareAutoReload } from './prepare-auto-reload.js';
export { receiveStripeWebhook } from './receive-stripe-webhook.js';
export { recordTopUp } from './record-top-up.js';
export { runAutoReload } from './run-auto-reload.js';
export { runMonthlyBilling } from './run-monthly-billing.js';
export { settleTopUp } from './settle-top-up.js';
export { completeSimulatedCheckout, getSimulatedCheckout } from './simulated-checkout.js';
export { updateBalanceSettings } from './update-balance-settings.js';
