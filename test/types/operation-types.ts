/**
 * Every operation's input and output types checked against its JSON Schemas, at compile time
 * (`npm run build` compiles test/): an operation whose declared output no longer fits its output
 * schema, or whose input type no longer accepts what its input schema lets through, fails the
 * build with its name. test/contract/schema-types.test.ts checks that this table lists every
 * operation, with the `input` and `output` ids the operation itself declares.
 */

import { creditUserBalance } from '../../domain/admin/operations/credit-user-balance.js';
import { debitUserBalance } from '../../domain/admin/operations/debit-user-balance.js';
import { deleteAdminSubTenant } from '../../domain/admin/operations/delete-admin-sub-tenant.js';
import { getAdminCompany } from '../../domain/admin/operations/get-admin-company.js';
import { getAdminStats } from '../../domain/admin/operations/get-admin-stats.js';
import { getAdminSubTenant } from '../../domain/admin/operations/get-admin-sub-tenant.js';
import { getAdminUser } from '../../domain/admin/operations/get-admin-user.js';
import { listAdminCompanies } from '../../domain/admin/operations/list-admin-companies.js';
import { listAdminSubTenants } from '../../domain/admin/operations/list-admin-sub-tenants.js';
import { listAdminUsers } from '../../domain/admin/operations/list-admin-users.js';
import { listSubTenantStatusOptions } from '../../domain/admin/operations/list-sub-tenant-status-options.js';
import { toggleCompanyStatus } from '../../domain/admin/operations/toggle-company-status.js';
import { toggleUserStatus } from '../../domain/admin/operations/toggle-user-status.js';
import { completeFiscalAnchor } from '../../domain/anchoring/operations/complete-fiscal-anchor.js';
import { downloadAnchorCaCertificate } from '../../domain/anchoring/operations/download-anchor-ca-certificate.js';
import { downloadAnchorToken } from '../../domain/anchoring/operations/download-anchor-token.js';
import { getAnchorToStamp } from '../../domain/anchoring/operations/get-anchor-to-stamp.js';
import { listFiscalAnchors } from '../../domain/anchoring/operations/list-fiscal-anchors.js';
import { recordAnchorAttempt } from '../../domain/anchoring/operations/record-anchor-attempt.js';
import { attachCheckoutSession } from '../../domain/billing/operations/attach-checkout-session.js';
import { confirmTopUp } from '../../domain/billing/operations/confirm-top-up.js';
import { createTopUp } from '../../domain/billing/operations/create-top-up.js';
import { creditBalance } from '../../domain/billing/operations/credit-balance.js';
import { debitBalance } from '../../domain/billing/operations/debit-balance.js';
import { downloadBillingInvoice } from '../../domain/billing/operations/download-billing-invoice.js';
import { findTopUpOperation } from '../../domain/billing/operations/find-top-up.js';
import { generateBillingInvoiceDocuments } from '../../domain/billing/operations/generate-billing-invoice-documents.js';
import { getBalance } from '../../domain/billing/operations/get-balance.js';
import { getBillingContact } from '../../domain/billing/operations/get-billing-contact.js';
import { getBillingInvoice } from '../../domain/billing/operations/get-billing-invoice.js';
import { getBillingUsage } from '../../domain/billing/operations/get-billing-usage.js';
import { getTenantBalance } from '../../domain/billing/operations/get-tenant-balance.js';
import { issueBillingInvoice } from '../../domain/billing/operations/issue-billing-invoice.js';
import { listBillingInvoices } from '../../domain/billing/operations/list-billing-invoices.js';
import { listBillingTransactions } from '../../domain/billing/operations/list-billing-transactions.js';
import { prepareAutoReload } from '../../domain/billing/operations/prepare-auto-reload.js';
import { receiveStripeWebhook } from '../../domain/billing/operations/receive-stripe-webhook.js';
import { recordTopUp } from '../../domain/billing/operations/record-top-up.js';
import { runAutoReload } from '../../domain/billing/operations/run-auto-reload.js';
import { runMonthlyBilling } from '../../domain/billing/operations/run-monthly-billing.js';
import { settleTopUp } from '../../domain/billing/operations/settle-top-up.js';
import { completeSimulatedCheckout, getSimulatedCheckout } from '../../domain/billing/operations/simulated-checkout.js';
import { updateBalanceSettings } from '../../domain/billing/operations/update-balance-settings.js';
import { createCompany } from '../../domain/companies/operations/create-company.js';
import { deleteCompany } from '../../domain/companies/operations/delete-company.js';
import { getCompany } from '../../domain/companies/operations/get-company.js';
import { getCompanyKycStatus } from '../../domain/companies/operations/get-company-kyc-status.js';
import { listCompanies } from '../../domain/companies/operations/list-companies.js';
import { recordCompanyKyc } from '../../domain/companies/operations/record-company-kyc.js';
import { startCompanyKyc } from '../../domain/companies/operations/start-company-kyc.js';
import { updateCompany } from '../../domain/companies/operations/update-company.js';
import { validateSiret } from '../../domain/companies/operations/validate-siret.js';
import { validateVat } from '../../domain/companies/operations/validate-vat.js';
import { readCreditNoteFile } from '../../domain/credit-notes/credit-note-file-bytes.js';
import { createCreditNote } from '../../domain/credit-notes/operations/create-credit-note.js';
import { createSubTenantCreditNote } from '../../domain/credit-notes/operations/create-sub-tenant-credit-note.js';
import { deleteCreditNote } from '../../domain/credit-notes/operations/delete-credit-note.js';
import { downloadCreditNote } from '../../domain/credit-notes/operations/download-credit-note.js';
import { downloadCreditNoteFile } from '../../domain/credit-notes/operations/download-credit-note-file.js';
import { generateCreditNoteDocuments } from '../../domain/credit-notes/operations/generate-credit-note-documents.js';
import { getCreditNote } from '../../domain/credit-notes/operations/get-credit-note.js';
import { getCreditNoteAuditTrail } from '../../domain/credit-notes/operations/get-credit-note-audit-trail.js';
import { getRemainingCreditable } from '../../domain/credit-notes/operations/get-remaining-creditable.js';
import { listCreditNotes } from '../../domain/credit-notes/operations/list-credit-notes.js';
import { listSubTenantCreditNotes } from '../../domain/credit-notes/operations/list-sub-tenant-credit-notes.js';
import { sendCreditNote } from '../../domain/credit-notes/operations/send-credit-note.js';
import { downloadFiscalAttestation } from '../../domain/fiscal-exports/operations/download-fiscal-attestation.js';
import { downloadFiscalExport } from '../../domain/fiscal-exports/operations/download-fiscal-export.js';
import { downloadIscaMeasuresRegister } from '../../domain/fiscal-exports/operations/download-isca-measures-register.js';
import { downloadIscaSelfAttestation } from '../../domain/fiscal-exports/operations/download-isca-self-attestation.js';
import { downloadIscaTechnicalDossier } from '../../domain/fiscal-exports/operations/download-isca-technical-dossier.js';
import { exportForensic } from '../../domain/fiscal-exports/operations/export-forensic.js';
import { getFiscalAttestation } from '../../domain/fiscal-exports/operations/get-fiscal-attestation.js';
import { getFiscalCompliance } from '../../domain/fiscal-exports/operations/get-fiscal-compliance.js';
import { getFiscalExportLink } from '../../domain/fiscal-exports/operations/get-fiscal-export-link.js';
import { acceptIncomingInvoice } from '../../domain/incoming/operations/accept-incoming-invoice.js';
import { disputeIncomingInvoice } from '../../domain/incoming/operations/dispute-incoming-invoice.js';
import { getIncomingInvoice } from '../../domain/incoming/operations/get-incoming-invoice.js';
import { getIncomingStatusToSend } from '../../domain/incoming/operations/get-incoming-status-to-send.js';
import { getIncomingSyncCursor } from '../../domain/incoming/operations/get-incoming-sync-cursor.js';
import { listIncomingInvoices } from '../../domain/incoming/operations/list-incoming-invoices.js';
import { listSubTenantIncomingInvoices } from '../../domain/incoming/operations/list-sub-tenant-incoming-invoices.js';
import { markIncomingInvoicePaid } from '../../domain/incoming/operations/mark-incoming-invoice-paid.js';
import { recordIncomingStatusSend } from '../../domain/incoming/operations/record-incoming-status-send.js';
import { registerIncomingInvoice } from '../../domain/incoming/operations/register-incoming-invoice.js';
import { rejectIncomingInvoice } from '../../domain/incoming/operations/reject-incoming-invoice.js';
import { scheduleIncomingSyncs } from '../../domain/incoming/operations/schedule-incoming-syncs.js';
import { storeIncomingPage } from '../../domain/incoming/operations/store-incoming-page.js';
import { syncIncomingInvoices } from '../../domain/incoming/operations/sync-incoming-invoices.js';
import { convertInvoice } from '../../domain/invoicing/operations/convert-invoice.js';
import { createInvoice } from '../../domain/invoicing/operations/create-invoice.js';
import { createInvoicesBulk } from '../../domain/invoicing/operations/create-invoices-bulk.js';
import { createTenantInvoice } from '../../domain/invoicing/operations/create-tenant-invoice.js';
import { deleteInvoice } from '../../domain/invoicing/operations/delete-invoice.js';
import { downloadInvoiceFile } from '../../domain/invoicing/operations/download-invoice-file.js';
import { generateInvoiceDocuments } from '../../domain/invoicing/operations/generate-invoice-documents.js';
import { getInvoice } from '../../domain/invoicing/operations/get-invoice.js';
import { getInvoiceAuditTrail } from '../../domain/invoicing/operations/get-invoice-audit-trail.js';
import { getInvoiceDownloadLink } from '../../domain/invoicing/operations/get-invoice-download-link.js';
import { getSandboxInvoiceDownloadLink } from '../../domain/invoicing/operations/get-sandbox-invoice-download-link.js';
import { listInvoices } from '../../domain/invoicing/operations/list-invoices.js';
import { listSubTenantInvoices } from '../../domain/invoicing/operations/list-sub-tenant-invoices.js';
import { updateInvoice } from '../../domain/invoicing/operations/update-invoice.js';
import { checkFiscalIntegrity } from '../../domain/ledger/operations/check-fiscal-integrity.js';
import { checkFiscalIntegrityForDate } from '../../domain/ledger/operations/check-fiscal-integrity-for-date.js';
import { closeFiscalChain } from '../../domain/ledger/operations/close-fiscal-chain.js';
import { createFiscalRule } from '../../domain/ledger/operations/create-fiscal-rule.js';
import { exportFec } from '../../domain/ledger/operations/export-fec.js';
import { exportFiscalRules } from '../../domain/ledger/operations/export-fiscal-rules.js';
import { getFiscalRule } from '../../domain/ledger/operations/get-fiscal-rule.js';
import { getKillSwitchStatus } from '../../domain/ledger/operations/get-kill-switch-status.js';
import { listFiscalClosings } from '../../domain/ledger/operations/list-fiscal-closings.js';
import { listFiscalEntries } from '../../domain/ledger/operations/list-fiscal-entries.js';
import { listFiscalIntegrityChecks } from '../../domain/ledger/operations/list-fiscal-integrity-checks.js';
import { listFiscalRuleHistory } from '../../domain/ledger/operations/list-fiscal-rule-history.js';
import { listFiscalRules } from '../../domain/ledger/operations/list-fiscal-rules.js';
import { performDailyClosing } from '../../domain/ledger/operations/perform-daily-closing.js';
import { replayFiscalRules } from '../../domain/ledger/operations/replay-fiscal-rules.js';
import { scheduleFiscalClosings } from '../../domain/ledger/operations/schedule-fiscal-closings.js';
import { activateKillSwitch, deactivateKillSwitch } from '../../domain/ledger/operations/set-kill-switch.js';
import { updateFiscalRule } from '../../domain/ledger/operations/update-fiscal-rule.js';
import {
  authorizeOnboarding,
  authorizeTenantOnboarding,
  resumeOnboarding,
} from '../../domain/onboarding/operations/authorize-onboarding.js';
import {
  createOnboardingSession,
  createTenantOnboardingSession,
} from '../../domain/onboarding/operations/create-onboarding-session.js';
import {
  exchangeOnboardingCode,
  exchangeTenantOnboardingCode,
  redeemOnboardingCode,
  redeemTenantOnboardingCode,
} from '../../domain/onboarding/operations/exchange-onboarding-code.js';
import {
  getOnboardingSession,
  getTenantOnboardingSession,
} from '../../domain/onboarding/operations/get-onboarding-session.js';
import {
  claimPartnerOnboardingState,
  claimTenantOnboardingState,
  completePartnerOnboarding,
  completeTenantOnboarding,
  failOnboardingSession,
  finishOnboarding,
  finishTenantOnboarding,
} from '../../domain/onboarding/operations/onboarding-callback.js';
import { getOnboardingReview, recordOnboardingReview } from '../../domain/onboarding/operations/onboarding-review.js';
import {
  decideOnboardingSimulator,
  getOnboardingSimulator,
} from '../../domain/onboarding/operations/onboarding-simulator.js';
import { openOnboardingRedirect } from '../../domain/onboarding/operations/open-onboarding-redirect.js';
import { getPricing } from '../../domain/platform/operations/get-pricing.js';
import { healthCheck } from '../../domain/platform/operations/health-check.js';
import { purgeIdempotencyKeys } from '../../domain/platform/operations/purge-idempotency-keys.js';
import { acceptQuote } from '../../domain/quotes/operations/accept-quote.js';
import { cancelQuote } from '../../domain/quotes/operations/cancel-quote.js';
import { checkQuoteIntegrity } from '../../domain/quotes/operations/check-quote-integrity.js';
import { convertQuoteToBalance } from '../../domain/quotes/operations/convert-quote-to-balance.js';
import { convertQuoteToDeposit } from '../../domain/quotes/operations/convert-quote-to-deposit.js';
import { createQuote } from '../../domain/quotes/operations/create-quote.js';
import { downloadQuotePdf } from '../../domain/quotes/operations/download-quote-pdf.js';
import { duplicateQuote } from '../../domain/quotes/operations/duplicate-quote.js';
import { expireQuote } from '../../domain/quotes/operations/expire-quote.js';
import { exportQuoteAudit } from '../../domain/quotes/operations/export-quote-audit.js';
import { getAdminQuote } from '../../domain/quotes/operations/get-admin-quote.js';
import { getAdminQuoteStats } from '../../domain/quotes/operations/get-admin-quote-stats.js';
import { getQuote } from '../../domain/quotes/operations/get-quote.js';
import { getQuoteAuditLog } from '../../domain/quotes/operations/get-quote-audit-log.js';
import { getQuoteMail } from '../../domain/quotes/operations/get-quote-mail.js';
import { listAdminQuotes } from '../../domain/quotes/operations/list-admin-quotes.js';
import { listQuotes } from '../../domain/quotes/operations/list-quotes.js';
import { refuseQuote } from '../../domain/quotes/operations/refuse-quote.js';
import { regenerateQuoteLink } from '../../domain/quotes/operations/regenerate-quote-link.js';
import { revokeQuoteLink } from '../../domain/quotes/operations/revoke-quote-link.js';
import { sendQuote } from '../../domain/quotes/operations/send-quote.js';
import { updateQuote } from '../../domain/quotes/operations/update-quote.js';
import { viewQuotePage } from '../../domain/quotes/operations/view-quote-page.js';
import type { FileOutput } from '../../domain/shared/file-output.js';
import type { Operation } from '../../domain/shared/operation.js';
import { applyProviderSignatureState } from '../../domain/signatures/operations/apply-provider-signature-state.js';
import { cancelSandboxSignature } from '../../domain/signatures/operations/cancel-sandbox-signature.js';
import { cancelSignature } from '../../domain/signatures/operations/cancel-signature.js';
import { claimSignatureHandover } from '../../domain/signatures/operations/claim-signature-handover.js';
import { completeSignature } from '../../domain/signatures/operations/complete-signature.js';
import { createOpenapiToken } from '../../domain/signatures/operations/create-openapi-token.js';
import { createSignature } from '../../domain/signatures/operations/create-signature.js';
import { deleteOpenapiToken } from '../../domain/signatures/operations/delete-openapi-token.js';
import { deleteProviderSignature } from '../../domain/signatures/operations/delete-provider-signature.js';
import { downloadSignatureFile } from '../../domain/signatures/operations/download-signature-file.js';
import { expireSignatures } from '../../domain/signatures/operations/expire-signatures.js';
import { getOpenapiConfig } from '../../domain/signatures/operations/get-openapi-config.js';
import { getOpenapiCredit } from '../../domain/signatures/operations/get-openapi-credit.js';
import { getProviderSignatureRef } from '../../domain/signatures/operations/get-provider-signature-ref.js';
import { getSandboxSignatureDownloadLink } from '../../domain/signatures/operations/get-sandbox-signature-download-link.js';
import { getSignature } from '../../domain/signatures/operations/get-signature.js';
import { getSignatureAuditTrail } from '../../domain/signatures/operations/get-signature-audit-trail.js';
import { getSignatureDownloadLink } from '../../domain/signatures/operations/get-signature-download-link.js';
import { getSignatureReminder } from '../../domain/signatures/operations/get-signature-reminder.js';
import { getSigningDocument } from '../../domain/signatures/operations/get-signing-document.js';
import { getSigningPage } from '../../domain/signatures/operations/get-signing-page.js';
import { issueSigningCode } from '../../domain/signatures/operations/issue-signing-code.js';
import { listOpenapiTokens } from '../../domain/signatures/operations/list-openapi-tokens.js';
import { listSignatures } from '../../domain/signatures/operations/list-signatures.js';
import { queueProviderSignatureSyncs } from '../../domain/signatures/operations/queue-provider-signature-syncs.js';
import { receiveOpenapiSignatureCallback } from '../../domain/signatures/operations/receive-openapi-signature-callback.js';
import { recordSignatureHandover } from '../../domain/signatures/operations/record-signature-handover.js';
import { refreshOpenapiToken } from '../../domain/signatures/operations/refresh-openapi-token.js';
import { refuseSignature } from '../../domain/signatures/operations/refuse-signature.js';
import { remindSandboxSignature } from '../../domain/signatures/operations/remind-sandbox-signature.js';
import { remindSignature } from '../../domain/signatures/operations/remind-signature.js';
import { saveOpenapiConfig } from '../../domain/signatures/operations/save-openapi-config.js';
import { sendSigningCode } from '../../domain/signatures/operations/send-signing-code.js';
import { signSignature } from '../../domain/signatures/operations/sign-signature.js';
import { submitSignature } from '../../domain/signatures/operations/submit-signature.js';
import { syncSignature } from '../../domain/signatures/operations/sync-signature.js';
import { verifyOpenapiConfig } from '../../domain/signatures/operations/verify-openapi-config.js';
import { verifySigningCode } from '../../domain/signatures/operations/verify-signing-code.js';
import { createSubTenant } from '../../domain/sub-tenants/operations/create-sub-tenant.js';
import { deleteSubTenant } from '../../domain/sub-tenants/operations/delete-sub-tenant.js';
import { findSubTenantByExternalId } from '../../domain/sub-tenants/operations/find-sub-tenant-by-external-id.js';
import { getSubTenant } from '../../domain/sub-tenants/operations/get-sub-tenant.js';
import { getSubTenantStats } from '../../domain/sub-tenants/operations/get-sub-tenant-stats.js';
import { listSubTenants } from '../../domain/sub-tenants/operations/list-sub-tenants.js';
import { updateSubTenant } from '../../domain/sub-tenants/operations/update-sub-tenant.js';
import { applyKybReview } from '../../domain/tenants/operations/apply-kyb-review.js';
import { createApiKey } from '../../domain/tenants/operations/create-api-key.js';
import { createTenant } from '../../domain/tenants/operations/create-tenant.js';
import { createTenantPublishableKey } from '../../domain/tenants/operations/create-tenant-publishable-key.js';
import { createTenantSecretKey } from '../../domain/tenants/operations/create-tenant-secret-key.js';
import { deleteKybDocument } from '../../domain/tenants/operations/delete-kyb-document.js';
import { downloadKybDocument } from '../../domain/tenants/operations/download-kyb-document.js';
import { downloadKybDocumentForReview } from '../../domain/tenants/operations/download-kyb-document-for-review.js';
import { getApiKey } from '../../domain/tenants/operations/get-api-key.js';
import { getKybDocument } from '../../domain/tenants/operations/get-kyb-document.js';
import { getKybMailNotice } from '../../domain/tenants/operations/get-kyb-mail-notice.js';
import { getKybStatus } from '../../domain/tenants/operations/get-kyb-status.js';
import { getTenantAccount } from '../../domain/tenants/operations/get-tenant-account.js';
import { getTenantProfile } from '../../domain/tenants/operations/get-tenant-profile.js';
import { getTenantStats } from '../../domain/tenants/operations/get-tenant-stats.js';
import { listApiKeys } from '../../domain/tenants/operations/list-api-keys.js';
import { listKybDocuments } from '../../domain/tenants/operations/list-kyb-documents.js';
import { listPendingKyb } from '../../domain/tenants/operations/list-pending-kyb.js';
import { listTenantKeys } from '../../domain/tenants/operations/list-tenant-keys.js';
import { loginTenant } from '../../domain/tenants/operations/login-tenant.js';
import { logoutTenant } from '../../domain/tenants/operations/logout-tenant.js';
import { readKybDocumentFile } from '../../domain/tenants/operations/read-kyb-document-file.js';
import { readPendingKyb } from '../../domain/tenants/operations/read-pending-kyb.js';
import { regenerateTenantKey } from '../../domain/tenants/operations/regenerate-tenant-key.js';
import { registerTenant } from '../../domain/tenants/operations/register-tenant.js';
import { reviewKybDocument } from '../../domain/tenants/operations/review-kyb-document.js';
import { revokeApiKey } from '../../domain/tenants/operations/revoke-api-key.js';
import { updateTenantProfile } from '../../domain/tenants/operations/update-tenant-profile.js';
import { uploadKybDocument } from '../../domain/tenants/operations/upload-kyb-document.js';
import { validateApiKey } from '../../domain/tenants/operations/validate-api-key.js';
import { bulkInvoiceStatus } from '../../domain/transmission/operations/bulk-invoice-status.js';
import { bulkSubmitInvoices } from '../../domain/transmission/operations/bulk-submit-invoices.js';
import { connectProvider } from '../../domain/transmission/operations/connect-provider.js';
import { getInvoiceStatusTarget } from '../../domain/transmission/operations/get-invoice-status-target.js';
import { getProviderSyncCursor } from '../../domain/transmission/operations/get-provider-sync-cursor.js';
import { listConnectionsToSync } from '../../domain/transmission/operations/list-connections-to-sync.js';
import { markInvoicePaid } from '../../domain/transmission/operations/mark-invoice-paid.js';
import { prepareInvoiceTransmission } from '../../domain/transmission/operations/prepare-invoice-transmission.js';
import { queueProviderSyncs } from '../../domain/transmission/operations/queue-provider-syncs.js';
import { receiveSuperpdpCallback } from '../../domain/transmission/operations/receive-superpdp-callback.js';
import { recordInvoiceUpload } from '../../domain/transmission/operations/record-invoice-upload.js';
import { recordProviderEvents } from '../../domain/transmission/operations/record-provider-events.js';
import { simulateInvoiceLifecycle } from '../../domain/transmission/operations/simulate-invoice-lifecycle.js';
import { submitInvoice } from '../../domain/transmission/operations/submit-invoice.js';
import { completeGoogleSignIn } from '../../domain/users/operations/complete-google-sign-in.js';
import { createAdmin } from '../../domain/users/operations/create-admin.js';
import { createPasswordReset } from '../../domain/users/operations/create-password-reset.js';
import { getCurrentUser } from '../../domain/users/operations/get-current-user.js';
import { getGoogleSignInUrl } from '../../domain/users/operations/get-google-sign-in-url.js';
import { issueCsrfCookie } from '../../domain/users/operations/issue-csrf-cookie.js';
import { loginUser } from '../../domain/users/operations/login-user.js';
import { logoutUser } from '../../domain/users/operations/logout-user.js';
import { prepareEmailVerification } from '../../domain/users/operations/prepare-email-verification.js';
import { registerUser } from '../../domain/users/operations/register-user.js';
import { requestPasswordReset } from '../../domain/users/operations/request-password-reset.js';
import { resendEmailVerification } from '../../domain/users/operations/resend-email-verification.js';
import { resetPassword } from '../../domain/users/operations/reset-password.js';
import { verifyEmail } from '../../domain/users/operations/verify-email.js';
import { createWebhookEndpoint } from '../../domain/webhooks/operations/create-webhook-endpoint.js';
import { deleteWebhookEndpoint } from '../../domain/webhooks/operations/delete-webhook-endpoint.js';
import { dispatchEvents } from '../../domain/webhooks/operations/dispatch-event.js';
import { getWebhookDisabledNotice } from '../../domain/webhooks/operations/get-webhook-disabled-notice.js';
import { getWebhookEndpoint } from '../../domain/webhooks/operations/get-webhook-endpoint.js';
import { listTenantWebhookLogs } from '../../domain/webhooks/operations/list-tenant-webhook-logs.js';
import { listWebhookEndpoints } from '../../domain/webhooks/operations/list-webhook-endpoints.js';
import { listWebhookLogs } from '../../domain/webhooks/operations/list-webhook-logs.js';
import {
  prepareWebhookDeliveries,
  prepareWebhookDelivery,
} from '../../domain/webhooks/operations/prepare-webhook-delivery.js';
import { prepareWebhookTest } from '../../domain/webhooks/operations/prepare-webhook-test.js';
import {
  recordWebhookAttempt,
  recordWebhookAttempts,
} from '../../domain/webhooks/operations/record-webhook-attempt.js';
import { recordWebhookTest } from '../../domain/webhooks/operations/record-webhook-test.js';
import { regenerateTenantWebhookSecret } from '../../domain/webhooks/operations/regenerate-tenant-webhook-secret.js';
import { regenerateWebhookSecret } from '../../domain/webhooks/operations/regenerate-webhook-secret.js';
import { testWebhookEndpoint } from '../../domain/webhooks/operations/test-webhook-endpoint.js';
import { updateWebhookEndpoint } from '../../domain/webhooks/operations/update-webhook-endpoint.js';
import type { SchemaId, SchemaType } from './schema-type.js';

/**
 * Outputs served as bytes (a download, named in Content-Disposition): the schema documents the
 * HTTP body, the operation returns the bytes and their headers (or, asked for one, a download link).
 */
type FileSchemaId =
  | 'BillingInvoiceFile'
  | 'CreditNoteFile'
  | 'FecFile'
  | 'FiscalAnchorFile'
  | 'FiscalDocumentPdf'
  | 'ForensicExportFile'
  | 'FiscalExportFile'
  | 'FiscalRulesExport'
  | 'InvoiceFile'
  | 'KybDocumentFile'
  | 'QuoteAuditExportFile'
  | 'QuoteFile'
  | 'SignatureFile'
  | 'SigningDocument';

/** By export name: [operation, input schema $id, output schema $id]. */
type Row = readonly [Operation<never, unknown>, SchemaId, SchemaId];

export const CHECKED_OPERATIONS = {
  creditUserBalance: [creditUserBalance, 'AdminBalanceMovementInput', 'BalanceCredited'],
  debitUserBalance: [debitUserBalance, 'AdminBalanceMovementInput', 'BalanceDebited'],
  deleteAdminSubTenant: [deleteAdminSubTenant, 'AdminDeleteSubTenantInput', 'AdminSubTenantDeleted'],
  getAdminCompany: [getAdminCompany, 'AdminIdInput', 'AdminCompany'],
  getAdminStats: [getAdminStats, 'AdminStatsInput', 'AdminStats'],
  getAdminSubTenant: [getAdminSubTenant, 'AdminSubTenantIdInput', 'AdminSubTenantDetail'],
  getAdminUser: [getAdminUser, 'AdminIdInput', 'AdminUser'],
  listAdminCompanies: [listAdminCompanies, 'AdminCompanyListInput', 'AdminCompanyList'],
  listAdminSubTenants: [listAdminSubTenants, 'AdminSubTenantListInput', 'AdminSubTenantList'],
  listAdminUsers: [listAdminUsers, 'AdminUserListInput', 'AdminUserList'],
  listSubTenantStatusOptions: [listSubTenantStatusOptions, 'EmptyInput', 'SubTenantStatusOptions'],
  toggleCompanyStatus: [toggleCompanyStatus, 'AdminToggleStatusInput', 'AdminCompany'],
  toggleUserStatus: [toggleUserStatus, 'AdminToggleStatusInput', 'AdminUser'],
  completeFiscalAnchor: [completeFiscalAnchor, 'CompleteFiscalAnchorInput', 'FiscalAnchor'],
  downloadAnchorCaCertificate: [downloadAnchorCaCertificate, 'FiscalAnchorFileInput', 'FiscalAnchorFile'],
  downloadAnchorToken: [downloadAnchorToken, 'FiscalAnchorFileInput', 'FiscalAnchorFile'],
  getAnchorToStamp: [getAnchorToStamp, 'AnchorToStampInput', 'AnchorToStamp'],
  listFiscalAnchors: [listFiscalAnchors, 'FiscalAnchorsInput', 'FiscalAnchorsPage'],
  recordAnchorAttempt: [recordAnchorAttempt, 'RecordAnchorAttemptInput', 'AnchorToStamp'],
  creditBalance: [creditBalance, 'CreditBalanceInput', 'BalanceCredited'],
  getBalance: [getBalance, 'EmptyInput', 'Balance'],
  getTenantBalance: [getTenantBalance, 'EmptyInput', 'Balance'],
  updateBalanceSettings: [updateBalanceSettings, 'UpdateBalanceSettingsInput', 'Balance'],
  debitBalance: [debitBalance, 'DebitBalanceInput', 'BalanceDebited'],
  downloadBillingInvoice: [downloadBillingInvoice, 'BillingInvoiceIdInput', 'BillingInvoiceFile'],
  generateBillingInvoiceDocuments: [
    generateBillingInvoiceDocuments,
    'BillingInvoiceIdInput',
    'GeneratedBillingInvoiceDocuments',
  ],
  getBillingInvoice: [getBillingInvoice, 'BillingInvoiceIdInput', 'BillingInvoice'],
  getBillingUsage: [getBillingUsage, 'BillingUsageInput', 'BillingUsage'],
  issueBillingInvoice: [issueBillingInvoice, 'IssueBillingInvoiceInput', 'IssuedBillingInvoice'],
  listBillingInvoices: [listBillingInvoices, 'BillingInvoiceListInput', 'BillingInvoicePage'],
  listBillingTransactions: [listBillingTransactions, 'BillingTransactionListInput', 'BillingTransactionPage'],
  runMonthlyBilling: [runMonthlyBilling, 'RunMonthlyBillingInput', 'MonthlyBillingRun'],
  createTopUp: [createTopUp, 'CreateTopUpInput', 'TopUpCheckout'],
  recordTopUp: [recordTopUp, 'RecordTopUpInput', 'TopUp'],
  attachCheckoutSession: [attachCheckoutSession, 'AttachCheckoutSessionInput', 'TopUp'],
  confirmTopUp: [confirmTopUp, 'ConfirmTopUpInput', 'TopUp'],
  findTopUpOperation: [findTopUpOperation, 'FindTopUpInput', 'TopUp'],
  settleTopUp: [settleTopUp, 'SettleTopUpInput', 'TopUp'],
  receiveStripeWebhook: [receiveStripeWebhook, 'InboundCallbackInput', 'InboundEventOutcome'],
  prepareAutoReload: [prepareAutoReload, 'TopUpIdInput', 'AutoReloadCharge'],
  runAutoReload: [runAutoReload, 'TopUpIdInput', 'TopUp'],
  getBillingContact: [getBillingContact, 'BalanceAlertInput', 'BillingContact'],
  getSimulatedCheckout: [getSimulatedCheckout, 'SimulatedCheckoutInput', 'SimulatedCheckout'],
  completeSimulatedCheckout: [completeSimulatedCheckout, 'CompleteSimulatedCheckoutInput', 'SimulatedCheckoutOutcome'],
  createCompany: [createCompany, 'CreateCompanyInput', 'Company'],
  deleteCompany: [deleteCompany, 'CompanyIdInput', 'CompanyDeleted'],
  getCompanyKycStatus: [getCompanyKycStatus, 'CompanyIdInput', 'CompanyKycStatus'],
  getCompany: [getCompany, 'CompanyIdInput', 'Company'],
  listCompanies: [listCompanies, 'ListCompaniesInput', 'CompanyList'],
  recordCompanyKyc: [recordCompanyKyc, 'RecordCompanyKycInput', 'CompanyKycStatus'],
  startCompanyKyc: [startCompanyKyc, 'CompanyIdInput', 'CompanyKycSession'],
  updateCompany: [updateCompany, 'UpdateCompanyInput', 'Company'],
  readCreditNoteFile: [readCreditNoteFile, 'CreditNoteDownloadInput', 'CreditNoteFile'],
  createCreditNote: [createCreditNote, 'CreateCreditNoteInput', 'CreditNote'],
  createSubTenantCreditNote: [createSubTenantCreditNote, 'CreateCreditNoteInput', 'CreditNote'],
  deleteCreditNote: [deleteCreditNote, 'CreditNoteIdInput', 'CreditNote'],
  downloadCreditNoteFile: [downloadCreditNoteFile, 'CreditNoteFileInput', 'CreditNoteFile'],
  downloadCreditNote: [downloadCreditNote, 'CreditNoteDownloadInput', 'CreditNoteFile'],
  generateCreditNoteDocuments: [generateCreditNoteDocuments, 'CreditNoteIdInput', 'GeneratedCreditNoteDocuments'],
  getCreditNote: [getCreditNote, 'CreditNoteIdInput', 'CreditNote'],
  getRemainingCreditable: [getRemainingCreditable, 'RemainingCreditableInput', 'RemainingCreditable'],
  listCreditNotes: [listCreditNotes, 'CreditNoteListInput', 'CreditNotePage'],
  listSubTenantCreditNotes: [listSubTenantCreditNotes, 'CreditNoteListInput', 'CreditNotePage'],
  sendCreditNote: [sendCreditNote, 'CreditNoteIdInput', 'CreditNote'],
  downloadFiscalAttestation: [downloadFiscalAttestation, 'FiscalAttestationInput', 'FiscalDocumentPdf'],
  downloadIscaMeasuresRegister: [downloadIscaMeasuresRegister, 'IscaDocumentInput', 'FiscalDocumentPdf'],
  downloadIscaSelfAttestation: [downloadIscaSelfAttestation, 'IscaDocumentInput', 'FiscalDocumentPdf'],
  downloadIscaTechnicalDossier: [downloadIscaTechnicalDossier, 'IscaDocumentInput', 'FiscalDocumentPdf'],
  exportForensic: [exportForensic, 'ForensicExportInput', 'ForensicExportFile'],
  getFiscalAttestation: [getFiscalAttestation, 'FiscalAttestationInput', 'FiscalAttestation'],
  getFiscalCompliance: [getFiscalCompliance, 'FiscalComplianceInput', 'FiscalCompliance'],
  acceptIncomingInvoice: [acceptIncomingInvoice, 'IncomingInvoiceIdInput', 'IncomingInvoice'],
  disputeIncomingInvoice: [disputeIncomingInvoice, 'DisputeIncomingInvoiceInput', 'IncomingInvoice'],
  getIncomingInvoice: [getIncomingInvoice, 'IncomingInvoiceIdInput', 'IncomingInvoice'],
  getIncomingStatusToSend: [getIncomingStatusToSend, 'IncomingStatusSendInput', 'IncomingStatusToSend'],
  getIncomingSyncCursor: [getIncomingSyncCursor, 'SyncIncomingInvoicesInput', 'IncomingSyncCursor'],
  listIncomingInvoices: [listIncomingInvoices, 'IncomingInvoiceListInput', 'IncomingInvoicePage'],
  listSubTenantIncomingInvoices: [
    listSubTenantIncomingInvoices,
    'SubTenantIncomingInvoiceListInput',
    'IncomingInvoicePage',
  ],
  markIncomingInvoicePaid: [markIncomingInvoicePaid, 'MarkIncomingInvoicePaidInput', 'IncomingInvoice'],
  recordIncomingStatusSend: [recordIncomingStatusSend, 'IncomingStatusSendInput', 'IncomingStatusToSend'],
  registerIncomingInvoice: [registerIncomingInvoice, 'RegisterIncomingInvoiceInput', 'IncomingInvoice'],
  rejectIncomingInvoice: [rejectIncomingInvoice, 'RejectIncomingInvoiceInput', 'IncomingInvoice'],
  scheduleIncomingSyncs: [scheduleIncomingSyncs, 'ScheduleIncomingSyncsInput', 'ScheduledIncomingSyncs'],
  storeIncomingPage: [storeIncomingPage, 'StoreIncomingPageInput', 'IncomingSyncOutcome'],
  syncIncomingInvoices: [syncIncomingInvoices, 'SyncIncomingInvoicesInput', 'IncomingSyncOutcome'],
  convertInvoice: [convertInvoice, 'ConvertInvoiceInput', 'InvoiceConversion'],
  createInvoice: [createInvoice, 'CreateInvoiceInput', 'Invoice'],
  createInvoicesBulk: [createInvoicesBulk, 'BulkCreateInvoicesInput', 'BulkCreateInvoicesResult'],
  createTenantInvoice: [createTenantInvoice, 'CreateTenantInvoiceInput', 'Invoice'],
  deleteInvoice: [deleteInvoice, 'InvoiceIdInput', 'Invoice'],
  downloadInvoiceFile: [downloadInvoiceFile, 'InvoiceFileInput', 'InvoiceFile'],
  generateInvoiceDocuments: [generateInvoiceDocuments, 'InvoiceDocumentsInput', 'GeneratedDocumentsBatch'],
  validateSiret: [validateSiret, 'ValidateSiretInput', 'SiretValidation'],
  validateVat: [validateVat, 'ValidateVatInput', 'VatValidation'],
  getCreditNoteAuditTrail: [getCreditNoteAuditTrail, 'CreditNoteIdInput', 'InvoiceAuditTrail'],
  getSignatureAuditTrail: [getSignatureAuditTrail, 'SignatureIdInput', 'InvoiceAuditTrail'],
  validateApiKey: [validateApiKey, 'EmptyInput', 'ApiKeyValidation'],
  getFiscalExportLink: [getFiscalExportLink, 'FiscalExportLinkInput', 'DownloadLink'],
  downloadFiscalExport: [downloadFiscalExport, 'FiscalExportFileInput', 'FiscalExportFile'],
  getInvoiceAuditTrail: [getInvoiceAuditTrail, 'InvoiceIdInput', 'InvoiceAuditTrail'],
  getInvoiceDownloadLink: [getInvoiceDownloadLink, 'InvoiceDownloadInput', 'DownloadLink'],
  getInvoice: [getInvoice, 'InvoiceIdInput', 'Invoice'],
  getSandboxInvoiceDownloadLink: [getSandboxInvoiceDownloadLink, 'SandboxInvoiceDownloadInput', 'DownloadLink'],
  listInvoices: [listInvoices, 'InvoiceListInput', 'InvoicePage'],
  listSubTenantInvoices: [listSubTenantInvoices, 'InvoiceListInput', 'InvoicePage'],
  updateInvoice: [updateInvoice, 'UpdateInvoiceInput', 'Invoice'],
  checkFiscalIntegrityForDate: [checkFiscalIntegrityForDate, 'FiscalIntegrityDateInput', 'FiscalIntegrityReport'],
  checkFiscalIntegrity: [checkFiscalIntegrity, 'FiscalIntegrityInput', 'FiscalIntegrityReport'],
  closeFiscalChain: [closeFiscalChain, 'CloseFiscalChainInput', 'CloseFiscalChainResult'],
  createFiscalRule: [createFiscalRule, 'CreateFiscalRuleInput', 'FiscalRule'],
  exportFec: [exportFec, 'FecExportInput', 'FecFile'],
  exportFiscalRules: [exportFiscalRules, 'EmptyInput', 'FiscalRulesExport'],
  getFiscalRule: [getFiscalRule, 'FiscalRuleInput', 'FiscalRule'],
  getKillSwitchStatus: [getKillSwitchStatus, 'EmptyInput', 'KillSwitchStatus'],
  listFiscalClosings: [listFiscalClosings, 'FiscalClosingsInput', 'FiscalClosingsPage'],
  listFiscalEntries: [listFiscalEntries, 'FiscalEntriesInput', 'FiscalEntriesPage'],
  listFiscalIntegrityChecks: [listFiscalIntegrityChecks, 'FiscalIntegrityHistoryInput', 'FiscalIntegrityHistory'],
  listFiscalRuleHistory: [listFiscalRuleHistory, 'FiscalRuleHistoryInput', 'FiscalRuleList'],
  listFiscalRules: [listFiscalRules, 'FiscalRulesInput', 'FiscalRuleList'],
  performDailyClosing: [performDailyClosing, 'PerformDailyClosingInput', 'FiscalClosing'],
  replayFiscalRules: [replayFiscalRules, 'ReplayFiscalRulesInput', 'FiscalRulesReplay'],
  scheduleFiscalClosings: [scheduleFiscalClosings, 'EmptyInput', 'ScheduleFiscalClosingsResult'],
  activateKillSwitch: [activateKillSwitch, 'ActivateKillSwitchInput', 'KillSwitchStatus'],
  deactivateKillSwitch: [deactivateKillSwitch, 'DeactivateKillSwitchInput', 'KillSwitchStatus'],
  updateFiscalRule: [updateFiscalRule, 'UpdateFiscalRuleInput', 'FiscalRule'],
  getPricing: [getPricing, 'EmptyInput', 'Pricing'],
  healthCheck: [healthCheck, 'EmptyInput', 'HealthStatus'],
  purgeIdempotencyKeys: [purgeIdempotencyKeys, 'EmptyInput', 'PurgeResult'],
  createSubTenant: [createSubTenant, 'CreateSubTenantInput', 'SubTenant'],
  deleteSubTenant: [deleteSubTenant, 'SubTenantIdInput', 'SubTenantDeleted'],
  findSubTenantByExternalId: [findSubTenantByExternalId, 'FindSubTenantByExternalIdInput', 'SubTenant'],
  getSubTenantStats: [getSubTenantStats, 'SubTenantStatsInput', 'SubTenantStatsOverview'],
  getSubTenant: [getSubTenant, 'SubTenantIdInput', 'SubTenant'],
  listSubTenants: [listSubTenants, 'ListSubTenantsInput', 'SubTenantList'],
  updateSubTenant: [updateSubTenant, 'UpdateSubTenantInput', 'SubTenant'],
  createApiKey: [createApiKey, 'CreateApiKeyInput', 'ApiKeyCreation'],
  createTenantPublishableKey: [createTenantPublishableKey, 'CreateTenantKeyInput', 'NewTenantKey'],
  createTenantSecretKey: [createTenantSecretKey, 'CreateTenantSecretKeyInput', 'NewTenantKey'],
  createTenant: [createTenant, 'CreateTenantInput', 'CreatedTenant'],
  applyKybReview: [applyKybReview, 'ApplyKybReviewInput', 'KybReview'],
  deleteKybDocument: [deleteKybDocument, 'KybDocumentIdInput', 'DeletedKybDocument'],
  downloadKybDocument: [downloadKybDocument, 'KybDocumentIdInput', 'KybDocumentFile'],
  downloadKybDocumentForReview: [downloadKybDocumentForReview, 'KybDocumentIdInput', 'KybDocumentFile'],
  getKybDocument: [getKybDocument, 'KybDocumentIdInput', 'KybDocument'],
  getKybMailNotice: [getKybMailNotice, 'EmptyInput', 'KybMailNotice'],
  getKybStatus: [getKybStatus, 'EmptyInput', 'KybStatus'],
  listKybDocuments: [listKybDocuments, 'EmptyInput', 'KybDocumentList'],
  listPendingKyb: [listPendingKyb, 'ListPendingKybInput', 'PendingKybPage'],
  readKybDocumentFile: [readKybDocumentFile, 'KybDocumentIdInput', 'KybDocumentFile'],
  readPendingKyb: [readPendingKyb, 'ListPendingKybInput', 'PendingKybPage'],
  reviewKybDocument: [reviewKybDocument, 'ReviewKybDocumentInput', 'KybReview'],
  uploadKybDocument: [uploadKybDocument, 'UploadKybDocumentInput', 'KybDocument'],
  getApiKey: [getApiKey, 'GetApiKeyInput', 'ApiKey'],
  getTenantAccount: [getTenantAccount, 'EmptyInput', 'TenantAccount'],
  getTenantProfile: [getTenantProfile, 'EmptyInput', 'TenantProfile'],
  getTenantStats: [getTenantStats, 'EmptyInput', 'TenantStats'],
  listApiKeys: [listApiKeys, 'ListApiKeysInput', 'ApiKeyPage'],
  listTenantKeys: [listTenantKeys, 'EmptyInput', 'TenantKeyList'],
  loginTenant: [loginTenant, 'LoginTenantInput', 'TenantToken'],
  logoutTenant: [logoutTenant, 'EmptyInput', 'TenantLogoutResult'],
  regenerateTenantKey: [regenerateTenantKey, 'EmptyInput', 'KeyRegeneration'],
  registerTenant: [registerTenant, 'RegisterTenantInput', 'TenantCredentials'],
  revokeApiKey: [revokeApiKey, 'RevokeApiKeyInput', 'ApiKeyRevocation'],
  updateTenantProfile: [updateTenantProfile, 'UpdateTenantProfileInput', 'UpdatedTenantProfile'],
  bulkInvoiceStatus: [bulkInvoiceStatus, 'InvoiceIdsInput', 'InvoiceTransmissionStatuses'],
  bulkSubmitInvoices: [bulkSubmitInvoices, 'InvoiceIdsInput', 'InvoiceTransmissionStatuses'],
  connectProvider: [connectProvider, 'ConnectProviderInput', 'ProviderConnection'],
  getInvoiceStatusTarget: [getInvoiceStatusTarget, 'InvoiceJobInput', 'StatusTarget'],
  getProviderSyncCursor: [getProviderSyncCursor, 'ConnectionIdInput', 'SyncCursor'],
  listConnectionsToSync: [listConnectionsToSync, 'EmptyInput', 'ConnectionsToSync'],
  markInvoicePaid: [markInvoicePaid, 'MarkInvoicePaidInput', 'Invoice'],
  prepareInvoiceTransmission: [prepareInvoiceTransmission, 'InvoiceJobInput', 'TransmissionPlan'],
  queueProviderSyncs: [queueProviderSyncs, 'ConnectionsToSync', 'ConnectionsToSync'],
  receiveSuperpdpCallback: [receiveSuperpdpCallback, 'InboundCallbackInput', 'InboundEventOutcome'],
  recordInvoiceUpload: [recordInvoiceUpload, 'UploadOutcomeInput', 'UploadOutcome'],
  recordProviderEvents: [recordProviderEvents, 'ProviderEventsInput', 'ProviderEventsOutcome'],
  simulateInvoiceLifecycle: [simulateInvoiceLifecycle, 'SimulateLifecycleInput', 'Invoice'],
  submitInvoice: [submitInvoice, 'InvoiceIdInput', 'Invoice'],
  completeGoogleSignIn: [completeGoogleSignIn, 'GoogleCallbackInput', 'AuthSession'],
  createAdmin: [createAdmin, 'CreateAdminInput', 'CreatedAdmin'],
  createPasswordReset: [createPasswordReset, 'CreatePasswordResetInput', 'PasswordResetCreated'],
  getCurrentUser: [getCurrentUser, 'EmptyInput', 'User'],
  getGoogleSignInUrl: [getGoogleSignInUrl, 'EmptyInput', 'GoogleSignInUrl'],
  issueCsrfCookie: [issueCsrfCookie, 'EmptyInput', 'CsrfCookie'],
  loginUser: [loginUser, 'LoginUserInput', 'AuthSession'],
  logoutUser: [logoutUser, 'EmptyInput', 'AuthMessage'],
  prepareEmailVerification: [prepareEmailVerification, 'PrepareEmailVerificationInput', 'EmailVerificationPrepared'],
  registerUser: [registerUser, 'RegisterUserInput', 'AuthSession'],
  requestPasswordReset: [requestPasswordReset, 'ForgotPasswordInput', 'AuthMessage'],
  resendEmailVerification: [resendEmailVerification, 'EmptyInput', 'AuthMessage'],
  resetPassword: [resetPassword, 'ResetPasswordInput', 'AuthMessage'],
  verifyEmail: [verifyEmail, 'VerifyEmailInput', 'AuthMessage'],
  createWebhookEndpoint: [createWebhookEndpoint, 'CreateWebhookEndpointInput', 'CreatedWebhookEndpoint'],
  deleteWebhookEndpoint: [deleteWebhookEndpoint, 'WebhookEndpointIdInput', 'WebhookEndpointDeleted'],
  dispatchEvents: [dispatchEvents, 'DispatchEventsInput', 'DispatchedEvents'],
  getWebhookDisabledNotice: [getWebhookDisabledNotice, 'WebhookDisabledNoticeInput', 'WebhookDisabledNotice'],
  getWebhookEndpoint: [getWebhookEndpoint, 'WebhookEndpointIdInput', 'WebhookEndpoint'],
  listTenantWebhookLogs: [listTenantWebhookLogs, 'ListTenantWebhookLogsInput', 'WebhookLogPage'],
  listWebhookEndpoints: [listWebhookEndpoints, 'ListWebhookEndpointsInput', 'WebhookEndpointPage'],
  listWebhookLogs: [listWebhookLogs, 'ListWebhookLogsInput', 'WebhookLogPage'],
  prepareWebhookDelivery: [prepareWebhookDelivery, 'PrepareWebhookDeliveryInput', 'PreparedWebhookDelivery'],
  prepareWebhookDeliveries: [prepareWebhookDeliveries, 'PrepareWebhookDeliveriesInput', 'PreparedWebhookDeliveries'],
  prepareWebhookTest: [prepareWebhookTest, 'WebhookEndpointIdInput', 'PreparedWebhookTest'],
  recordWebhookAttempt: [recordWebhookAttempt, 'RecordWebhookAttemptInput', 'RecordedWebhookAttempt'],
  recordWebhookAttempts: [recordWebhookAttempts, 'RecordWebhookAttemptsInput', 'RecordedWebhookAttempts'],
  recordWebhookTest: [recordWebhookTest, 'RecordWebhookTestInput', 'EmptyInput'],
  regenerateTenantWebhookSecret: [regenerateTenantWebhookSecret, 'EmptyInput', 'TenantWebhookSecret'],
  regenerateWebhookSecret: [regenerateWebhookSecret, 'WebhookEndpointIdInput', 'CreatedWebhookEndpoint'],
  testWebhookEndpoint: [testWebhookEndpoint, 'WebhookEndpointIdInput', 'WebhookTestResult'],
  updateWebhookEndpoint: [updateWebhookEndpoint, 'UpdateWebhookEndpointInput', 'WebhookEndpoint'],
  createOpenapiToken: [createOpenapiToken, 'CreateOpenapiTokenInput', 'CreatedOpenapiToken'],
  deleteOpenapiToken: [deleteOpenapiToken, 'OpenapiTokenIdInput', 'OpenapiTokenDeleted'],
  getOpenapiConfig: [getOpenapiConfig, 'EmptyInput', 'OpenapiConfig'],
  getOpenapiCredit: [getOpenapiCredit, 'EmptyInput', 'OpenapiCredit'],
  listOpenapiTokens: [listOpenapiTokens, 'EmptyInput', 'OpenapiTokenList'],
  refreshOpenapiToken: [refreshOpenapiToken, 'OpenapiTokenIdInput', 'CreatedOpenapiToken'],
  saveOpenapiConfig: [saveOpenapiConfig, 'SaveOpenapiConfigInput', 'OpenapiConfig'],
  verifyOpenapiConfig: [verifyOpenapiConfig, 'EmptyInput', 'OpenapiVerification'],
  cancelSandboxSignature: [cancelSandboxSignature, 'SignatureIdInput', 'Signature'],
  cancelSignature: [cancelSignature, 'SignatureIdInput', 'Signature'],
  createSignature: [createSignature, 'CreateSignatureInput', 'Signature'],
  downloadSignatureFile: [downloadSignatureFile, 'SignatureFileInput', 'SignatureFile'],
  expireSignatures: [expireSignatures, 'EmptyInput', 'ExpiredSignatures'],
  getSandboxSignatureDownloadLink: [getSandboxSignatureDownloadLink, 'SandboxSignatureDownloadInput', 'DownloadLink'],
  getSignature: [getSignature, 'SignatureIdInput', 'Signature'],
  getSignatureDownloadLink: [getSignatureDownloadLink, 'SignatureDownloadInput', 'DownloadLink'],
  getSignatureReminder: [getSignatureReminder, 'SignatureReminderInput', 'SignatureReminderMails'],
  listSignatures: [listSignatures, 'SignatureListInput', 'SignaturePage'],
  remindSandboxSignature: [remindSandboxSignature, 'SignatureIdInput', 'SignatureReminder'],
  remindSignature: [remindSignature, 'SignatureIdInput', 'SignatureReminder'],
  completeSignature: [completeSignature, 'SignatureIdInput', 'Signature'],
  applyProviderSignatureState: [applyProviderSignatureState, 'ApplyProviderStateInput', 'SignatureProviderOutcome'],
  claimSignatureHandover: [claimSignatureHandover, 'SignatureIdInput', 'SignatureHandover'],
  deleteProviderSignature: [deleteProviderSignature, 'SignatureIdInput', 'SignatureProviderOutcome'],
  getProviderSignatureRef: [getProviderSignatureRef, 'SignatureIdInput', 'ProviderSignatureRef'],
  queueProviderSignatureSyncs: [queueProviderSignatureSyncs, 'EmptyInput', 'ProviderSignatureSweep'],
  receiveOpenapiSignatureCallback: [receiveOpenapiSignatureCallback, 'OpenapiCallbackInput', 'InboundEventOutcome'],
  recordSignatureHandover: [recordSignatureHandover, 'RecordSignatureHandoverInput', 'SignatureProviderOutcome'],
  submitSignature: [submitSignature, 'SignatureIdInput', 'SignatureProviderOutcome'],
  syncSignature: [syncSignature, 'SignatureIdInput', 'SignatureProviderOutcome'],
  getSigningDocument: [getSigningDocument, 'SigningTokenInput', 'SigningDocument'],
  getSigningPage: [getSigningPage, 'SigningTokenInput', 'SigningPage'],
  issueSigningCode: [issueSigningCode, 'IssueSigningCodeInput', 'SigningCodeMessage'],
  refuseSignature: [refuseSignature, 'RefuseSigningInput', 'SigningStep'],
  sendSigningCode: [sendSigningCode, 'SigningTokenInput', 'SigningStep'],
  signSignature: [signSignature, 'SignDocumentInput', 'SigningStep'],
  verifySigningCode: [verifySigningCode, 'SigningCodeInput', 'SigningStep'],
  authorizeOnboarding: [authorizeOnboarding, 'OnboardingAuthorizeInput', 'OnboardingAuthorization'],
  authorizeTenantOnboarding: [authorizeTenantOnboarding, 'OnboardingAuthorizeInput', 'OnboardingAuthorization'],
  resumeOnboarding: [resumeOnboarding, 'ResumeOnboardingInput', 'OnboardingAuthorization'],
  createOnboardingSession: [createOnboardingSession, 'CreateOnboardingSessionInput', 'OnboardingSession'],
  createTenantOnboardingSession: [
    createTenantOnboardingSession,
    'CreateTenantOnboardingSessionInput',
    'OnboardingSession',
  ],
  exchangeOnboardingCode: [exchangeOnboardingCode, 'ExchangeOnboardingCodeInput', 'OnboardingCredentials'],
  exchangeTenantOnboardingCode: [
    exchangeTenantOnboardingCode,
    'ExchangeTenantOnboardingCodeInput',
    'SubTenantOnboardingCredentials',
  ],
  redeemOnboardingCode: [redeemOnboardingCode, 'RedeemOnboardingCodeInput', 'OnboardingRedemption'],
  redeemTenantOnboardingCode: [redeemTenantOnboardingCode, 'RedeemOnboardingCodeInput', 'OnboardingRedemption'],
  getOnboardingSession: [getOnboardingSession, 'OnboardingSessionIdInput', 'OnboardingSession'],
  getTenantOnboardingSession: [getTenantOnboardingSession, 'OnboardingSessionIdInput', 'OnboardingSession'],
  claimPartnerOnboardingState: [claimPartnerOnboardingState, 'OnboardingCallbackInput', 'OnboardingClaim'],
  claimTenantOnboardingState: [claimTenantOnboardingState, 'OnboardingCallbackInput', 'OnboardingClaim'],
  completePartnerOnboarding: [completePartnerOnboarding, 'CompleteOnboardingInput', 'TenantOnboardingCallbackResult'],
  completeTenantOnboarding: [completeTenantOnboarding, 'CompleteOnboardingInput', 'TenantOnboardingCallbackResult'],
  failOnboardingSession: [failOnboardingSession, 'OnboardingAuthorizeInput', 'OnboardingReviewOutcome'],
  finishOnboarding: [finishOnboarding, 'OnboardingCallbackInput', 'OnboardingCallbackResult'],
  finishTenantOnboarding: [finishTenantOnboarding, 'OnboardingCallbackInput', 'TenantOnboardingCallbackResult'],
  getOnboardingReview: [getOnboardingReview, 'OnboardingReviewInput', 'OnboardingReviewTarget'],
  recordOnboardingReview: [recordOnboardingReview, 'RecordOnboardingReviewInput', 'OnboardingReviewOutcome'],
  decideOnboardingSimulator: [decideOnboardingSimulator, 'OnboardingSimulatorDecision', 'OnboardingSimulatorRedirect'],
  getOnboardingSimulator: [getOnboardingSimulator, 'OnboardingSimulatorRequest', 'OnboardingSimulatorView'],
  openOnboardingRedirect: [openOnboardingRedirect, 'OnboardingRedirectInput', 'OnboardingRedirectPage'],
  acceptQuote: [acceptQuote, 'AcceptQuoteInput', 'QuotePageView'],
  cancelQuote: [cancelQuote, 'CancelQuoteInput', 'Quote'],
  checkQuoteIntegrity: [checkQuoteIntegrity, 'EmptyInput', 'QuoteIntegrityReport'],
  convertQuoteToBalance: [convertQuoteToBalance, 'ConvertQuoteToBalanceInput', 'QuoteConversion'],
  convertQuoteToDeposit: [convertQuoteToDeposit, 'ConvertQuoteToDepositInput', 'QuoteConversion'],
  createQuote: [createQuote, 'CreateQuoteInput', 'Quote'],
  downloadQuotePdf: [downloadQuotePdf, 'QuoteIdInput', 'QuoteFile'],
  duplicateQuote: [duplicateQuote, 'QuoteIdInput', 'Quote'],
  expireQuote: [expireQuote, 'QuoteJobInput', 'QuoteExpiryResult'],
  exportQuoteAudit: [exportQuoteAudit, 'QuoteAuditExportInput', 'QuoteAuditExportFile'],
  getAdminQuote: [getAdminQuote, 'AdminQuoteIdInput', 'AdminQuote'],
  getAdminQuoteStats: [getAdminQuoteStats, 'EmptyInput', 'AdminQuoteStats'],
  getQuote: [getQuote, 'QuoteIdInput', 'Quote'],
  getQuoteAuditLog: [getQuoteAuditLog, 'QuoteIdInput', 'QuoteAuditLog'],
  getQuoteMail: [getQuoteMail, 'QuoteJobInput', 'QuoteMail'],
  listAdminQuotes: [listAdminQuotes, 'AdminQuoteListInput', 'AdminQuotePage'],
  listQuotes: [listQuotes, 'QuoteListInput', 'QuotePage'],
  refuseQuote: [refuseQuote, 'RefuseQuoteInput', 'QuotePageView'],
  regenerateQuoteLink: [regenerateQuoteLink, 'QuoteIdInput', 'Quote'],
  revokeQuoteLink: [revokeQuoteLink, 'QuoteIdInput', 'Quote'],
  sendQuote: [sendQuote, 'QuoteIdInput', 'Quote'],
  updateQuote: [updateQuote, 'UpdateQuoteInput', 'Quote'],
  viewQuotePage: [viewQuotePage, 'QuoteTokenInput', 'QuotePageView'],
} as const satisfies Record<string, Row>;

type InputOf<T> = T extends Operation<infer I, infer _O> ? I : never;
type OutputOf<T> = T extends Operation<infer _I, infer O> ? O : never;
type OutputSchemaType<Id extends SchemaId> = Id extends FileSchemaId
  ? FileOutput | SchemaType<'DownloadLink'>
  : SchemaType<Id>;

/** What drifts, in words, when the operation's types drift from its schemas; else never. */
type Drift<Name extends string, R> = R extends readonly [
  infer Op,
  infer In extends SchemaId,
  infer Out extends SchemaId,
]
  ? [SchemaType<In>] extends [InputOf<Op>]
    ? [OutputOf<Op>] extends [OutputSchemaType<Out>]
      ? never
      : `${Name}: its output type does not fit ${Out}`
    : `${Name}: its input type does not accept ${In}`
  : `${Name}: not an [operation, input, output] row`;

type Checked = typeof CHECKED_OPERATIONS;
type Drifts = { [K in keyof Checked & string]: [Drift<K, Checked[K]>] extends [never] ? true : Drift<K, Checked[K]> };
type EveryValueTrue<T extends Record<string, true>> = T;

/** Fails to compile, naming a drifting operation and what drifts, when one drifts. */
export type NoOperationDrifts = EveryValueTrue<Drifts>;
