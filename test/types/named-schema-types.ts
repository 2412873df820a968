/**
 * Every type schemas/*.ts names after a schema (`export type X = FromSchema<typeof X, …>`) is the
 * type derived from the whole registry (test/types/schema-type.ts): a `references` list that misses
 * a schema the type reaches through `$ref`, or a `typeof` of the wrong schema, fails the build with
 * the schema's name. test/contract/schema-types.test.ts checks that this table lists every one.
 */
import type * as admin from '../../schemas/admin.js';
import type * as apiKeys from '../../schemas/api-keys.js';
import type * as auth from '../../schemas/auth.js';
import type * as billing from '../../schemas/billing.js';
import type * as billingInvoices from '../../schemas/billing-invoices.js';
import type * as billingUsage from '../../schemas/billing-usage.js';
import type * as companies from '../../schemas/companies.js';
import type * as creditNotes from '../../schemas/credit-notes.js';
import type * as fec from '../../schemas/fec.js';
import type * as fiscal from '../../schemas/fiscal.js';
import type * as fiscalAnchors from '../../schemas/fiscal-anchors.js';
import type * as fiscalAttestations from '../../schemas/fiscal-attestations.js';
import type * as fiscalClosings from '../../schemas/fiscal-closings.js';
import type * as fiscalCompliance from '../../schemas/fiscal-compliance.js';
import type * as fiscalRules from '../../schemas/fiscal-rules.js';
import type * as inboundEvents from '../../schemas/inbound-events.js';
import type * as incomingInvoices from '../../schemas/incoming-invoices.js';
import type * as invoiceReading from '../../schemas/invoice-reading.js';
import type * as invoices from '../../schemas/invoices.js';
import type * as kyb from '../../schemas/kyb.js';
import type * as maintenance from '../../schemas/maintenance.js';
import type * as mcp from '../../schemas/mcp.js';
import type * as onboarding from '../../schemas/onboarding.js';
import type * as platform from '../../schemas/platform.js';
import type * as quotes from '../../schemas/quotes.js';
import type * as signatureProviderAdmin from '../../schemas/signature-provider-admin.js';
import type * as signatureProviderJobs from '../../schemas/signature-provider-jobs.js';
import type * as signatures from '../../schemas/signatures.js';
import type * as signingPage from '../../schemas/signing-page.js';
import type * as subTenants from '../../schemas/sub-tenants.js';
import type * as tenantAuth from '../../schemas/tenant-auth.js';
import type * as tenantProfile from '../../schemas/tenant-profile.js';
import type * as tenants from '../../schemas/tenants.js';
import type * as topUps from '../../schemas/top-ups.js';
import type * as transmission from '../../schemas/transmission.js';
import type * as transmissionJobs from '../../schemas/transmission-jobs.js';
import type * as users from '../../schemas/users.js';
import type * as webhookDeliveries from '../../schemas/webhook-deliveries.js';
import type * as webhookLogs from '../../schemas/webhook-logs.js';
import type * as webhooks from '../../schemas/webhooks.js';
import type { Equals, SchemaType } from './schema-type.js';

type NamedTypes = {
  AdminStatsInput: Equals<admin.AdminStatsInput, SchemaType<'AdminStatsInput'>>;
  AdminStats: Equals<admin.AdminStats, SchemaType<'AdminStats'>>;
  AdminUserListInput: Equals<admin.AdminUserListInput, SchemaType<'AdminUserListInput'>>;
  AdminUser: Equals<admin.AdminUser, SchemaType<'AdminUser'>>;
  AdminIdInput: Equals<admin.AdminIdInput, SchemaType<'AdminIdInput'>>;
  AdminToggleStatusInput: Equals<admin.AdminToggleStatusInput, SchemaType<'AdminToggleStatusInput'>>;
  AdminCompanyListInput: Equals<admin.AdminCompanyListInput, SchemaType<'AdminCompanyListInput'>>;
  AdminCompany: Equals<admin.AdminCompany, SchemaType<'AdminCompany'>>;
  AdminBalanceMovementInput: Equals<admin.AdminBalanceMovementInput, SchemaType<'AdminBalanceMovementInput'>>;
  AdminSubTenantListInput: Equals<admin.AdminSubTenantListInput, SchemaType<'AdminSubTenantListInput'>>;
  AdminSubTenantTenant: Equals<admin.AdminSubTenantTenant, SchemaType<'AdminSubTenantTenant'>>;
  AdminSubTenantIdInput: Equals<admin.AdminSubTenantIdInput, SchemaType<'AdminSubTenantIdInput'>>;
  AdminSubTenantDetail: Equals<admin.AdminSubTenantDetail, SchemaType<'AdminSubTenantDetail'>>;
  AdminDeleteSubTenantInput: Equals<admin.AdminDeleteSubTenantInput, SchemaType<'AdminDeleteSubTenantInput'>>;
  AdminSubTenantDeleted: Equals<admin.AdminSubTenantDeleted, SchemaType<'AdminSubTenantDeleted'>>;
  SubTenantStatusOptions: Equals<admin.SubTenantStatusOptions, SchemaType<'SubTenantStatusOptions'>>;
  ValidateSiretInput: Equals<mcp.ValidateSiretInput, SchemaType<'ValidateSiretInput'>>;
  SiretValidation: Equals<mcp.SiretValidation, SchemaType<'SiretValidation'>>;
  ValidateVatInput: Equals<mcp.ValidateVatInput, SchemaType<'ValidateVatInput'>>;
  VatValidation: Equals<mcp.VatValidation, SchemaType<'VatValidation'>>;
  ApiKeyValidation: Equals<mcp.ApiKeyValidation, SchemaType<'ApiKeyValidation'>>;
  FiscalExportLinkInput: Equals<mcp.FiscalExportLinkInput, SchemaType<'FiscalExportLinkInput'>>;
  FiscalExportFileInput: Equals<mcp.FiscalExportFileInput, SchemaType<'FiscalExportFileInput'>>;
  ProviderSignatureState: Equals<signatureProviderJobs.ProviderSignatureState, SchemaType<'ProviderSignatureState'>>;
  SignatureHandover: Equals<signatureProviderJobs.SignatureHandover, SchemaType<'SignatureHandover'>>;
  RecordSignatureHandoverInput: Equals<
    signatureProviderJobs.RecordSignatureHandoverInput,
    SchemaType<'RecordSignatureHandoverInput'>
  >;
  ApplyProviderStateInput: Equals<signatureProviderJobs.ApplyProviderStateInput, SchemaType<'ApplyProviderStateInput'>>;
  ProviderSignatureRef: Equals<signatureProviderJobs.ProviderSignatureRef, SchemaType<'ProviderSignatureRef'>>;
  SignatureProviderOutcome: Equals<
    signatureProviderJobs.SignatureProviderOutcome,
    SchemaType<'SignatureProviderOutcome'>
  >;
  ProviderSignatureSweep: Equals<signatureProviderJobs.ProviderSignatureSweep, SchemaType<'ProviderSignatureSweep'>>;
  OpenapiCallbackInput: Equals<signatureProviderJobs.OpenapiCallbackInput, SchemaType<'OpenapiCallbackInput'>>;
  SigningTokenInput: Equals<signingPage.SigningTokenInput, SchemaType<'SigningTokenInput'>>;
  SigningCodeInput: Equals<signingPage.SigningCodeInput, SchemaType<'SigningCodeInput'>>;
  SignDocumentInput: Equals<signingPage.SignDocumentInput, SchemaType<'SignDocumentInput'>>;
  RefuseSigningInput: Equals<signingPage.RefuseSigningInput, SchemaType<'RefuseSigningInput'>>;
  SigningStep: Equals<signingPage.SigningStep, SchemaType<'SigningStep'>>;
  IssueSigningCodeInput: Equals<signingPage.IssueSigningCodeInput, SchemaType<'IssueSigningCodeInput'>>;
  CreateSignatureInput: Equals<signatures.CreateSignatureInput, SchemaType<'CreateSignatureInput'>>;
  SignatureListInput: Equals<signatures.SignatureListInput, SchemaType<'SignatureListInput'>>;
  SignatureIdInput: Equals<signatures.SignatureIdInput, SchemaType<'SignatureIdInput'>>;
  SignatureDownloadInput: Equals<signatures.SignatureDownloadInput, SchemaType<'SignatureDownloadInput'>>;
  SandboxSignatureDownloadInput: Equals<
    signatures.SandboxSignatureDownloadInput,
    SchemaType<'SandboxSignatureDownloadInput'>
  >;
  SignatureFileInput: Equals<signatures.SignatureFileInput, SchemaType<'SignatureFileInput'>>;
  SignatureReminder: Equals<signatures.SignatureReminder, SchemaType<'SignatureReminder'>>;
  ExpiredSignatures: Equals<signatures.ExpiredSignatures, SchemaType<'ExpiredSignatures'>>;
  SignatureReminderMails: Equals<signatures.SignatureReminderMails, SchemaType<'SignatureReminderMails'>>;
  ApiKey: Equals<apiKeys.ApiKey, SchemaType<'ApiKey'>>;
  ApiKeyCreation: Equals<apiKeys.ApiKeyCreation, SchemaType<'ApiKeyCreation'>>;
  CreateApiKeyInput: Equals<apiKeys.CreateApiKeyInput, SchemaType<'CreateApiKeyInput'>>;
  ListApiKeysInput: Equals<apiKeys.ListApiKeysInput, SchemaType<'ListApiKeysInput'>>;
  GetApiKeyInput: Equals<apiKeys.GetApiKeyInput, SchemaType<'GetApiKeyInput'>>;
  RevokeApiKeyInput: Equals<apiKeys.RevokeApiKeyInput, SchemaType<'RevokeApiKeyInput'>>;
  ApiKeyRevocation: Equals<apiKeys.ApiKeyRevocation, SchemaType<'ApiKeyRevocation'>>;
  User: Equals<auth.User, SchemaType<'User'>>;
  AuthSession: Equals<auth.AuthSession, SchemaType<'AuthSession'>>;
  AuthMessage: Equals<auth.AuthMessage, SchemaType<'AuthMessage'>>;
  RegisterUserInput: Equals<auth.RegisterUserInput, SchemaType<'RegisterUserInput'>>;
  LoginUserInput: Equals<auth.LoginUserInput, SchemaType<'LoginUserInput'>>;
  ForgotPasswordInput: Equals<auth.ForgotPasswordInput, SchemaType<'ForgotPasswordInput'>>;
  ResetPasswordInput: Equals<auth.ResetPasswordInput, SchemaType<'ResetPasswordInput'>>;
  CreatePasswordResetInput: Equals<auth.CreatePasswordResetInput, SchemaType<'CreatePasswordResetInput'>>;
  PasswordResetCreated: Equals<auth.PasswordResetCreated, SchemaType<'PasswordResetCreated'>>;
  VerifyEmailInput: Equals<auth.VerifyEmailInput, SchemaType<'VerifyEmailInput'>>;
  PrepareEmailVerificationInput: Equals<
    auth.PrepareEmailVerificationInput,
    SchemaType<'PrepareEmailVerificationInput'>
  >;
  EmailVerificationPrepared: Equals<auth.EmailVerificationPrepared, SchemaType<'EmailVerificationPrepared'>>;
  GoogleSignInUrl: Equals<auth.GoogleSignInUrl, SchemaType<'GoogleSignInUrl'>>;
  GoogleCallbackInput: Equals<auth.GoogleCallbackInput, SchemaType<'GoogleCallbackInput'>>;
  CreditBalanceInput: Equals<billing.CreditBalanceInput, SchemaType<'CreditBalanceInput'>>;
  BalanceCredited: Equals<billing.BalanceCredited, SchemaType<'BalanceCredited'>>;
  Balance: Equals<billing.Balance, SchemaType<'Balance'>>;
  UpdateBalanceSettingsInput: Equals<billing.UpdateBalanceSettingsInput, SchemaType<'UpdateBalanceSettingsInput'>>;
  BillingInvoice: Equals<billingInvoices.BillingInvoice, SchemaType<'BillingInvoice'>>;
  BillingInvoiceListInput: Equals<billingInvoices.BillingInvoiceListInput, SchemaType<'BillingInvoiceListInput'>>;
  BillingInvoiceIdInput: Equals<billingInvoices.BillingInvoiceIdInput, SchemaType<'BillingInvoiceIdInput'>>;
  RunMonthlyBillingInput: Equals<billingInvoices.RunMonthlyBillingInput, SchemaType<'RunMonthlyBillingInput'>>;
  MonthlyBillingRun: Equals<billingInvoices.MonthlyBillingRun, SchemaType<'MonthlyBillingRun'>>;
  IssueBillingInvoiceInput: Equals<billingInvoices.IssueBillingInvoiceInput, SchemaType<'IssueBillingInvoiceInput'>>;
  IssuedBillingInvoice: Equals<billingInvoices.IssuedBillingInvoice, SchemaType<'IssuedBillingInvoice'>>;
  GeneratedBillingInvoiceDocuments: Equals<
    billingInvoices.GeneratedBillingInvoiceDocuments,
    SchemaType<'GeneratedBillingInvoiceDocuments'>
  >;
  BillingUsageInput: Equals<billingUsage.BillingUsageInput, SchemaType<'BillingUsageInput'>>;
  BillingUsageMonth: Equals<billingUsage.BillingUsageMonth, SchemaType<'BillingUsageMonth'>>;
  BillingUsage: Equals<billingUsage.BillingUsage, SchemaType<'BillingUsage'>>;
  BillingTransactionListInput: Equals<
    billingUsage.BillingTransactionListInput,
    SchemaType<'BillingTransactionListInput'>
  >;
  BillingTransaction: Equals<billingUsage.BillingTransaction, SchemaType<'BillingTransaction'>>;
  DebitBalanceInput: Equals<billingUsage.DebitBalanceInput, SchemaType<'DebitBalanceInput'>>;
  BalanceDebited: Equals<billingUsage.BalanceDebited, SchemaType<'BalanceDebited'>>;
  CreateTopUpInput: Equals<topUps.CreateTopUpInput, SchemaType<'CreateTopUpInput'>>;
  TopUpCheckout: Equals<topUps.TopUpCheckout, SchemaType<'TopUpCheckout'>>;
  ConfirmTopUpInput: Equals<topUps.ConfirmTopUpInput, SchemaType<'ConfirmTopUpInput'>>;
  TopUp: Equals<topUps.TopUp, SchemaType<'TopUp'>>;
  RecordTopUpInput: Equals<topUps.RecordTopUpInput, SchemaType<'RecordTopUpInput'>>;
  AttachCheckoutSessionInput: Equals<topUps.AttachCheckoutSessionInput, SchemaType<'AttachCheckoutSessionInput'>>;
  FindTopUpInput: Equals<topUps.FindTopUpInput, SchemaType<'FindTopUpInput'>>;
  SettleTopUpInput: Equals<topUps.SettleTopUpInput, SchemaType<'SettleTopUpInput'>>;
  TopUpIdInput: Equals<topUps.TopUpIdInput, SchemaType<'TopUpIdInput'>>;
  AutoReloadCharge: Equals<topUps.AutoReloadCharge, SchemaType<'AutoReloadCharge'>>;
  SimulatedCheckoutInput: Equals<topUps.SimulatedCheckoutInput, SchemaType<'SimulatedCheckoutInput'>>;
  SimulatedCheckout: Equals<topUps.SimulatedCheckout, SchemaType<'SimulatedCheckout'>>;
  CompleteSimulatedCheckoutInput: Equals<
    topUps.CompleteSimulatedCheckoutInput,
    SchemaType<'CompleteSimulatedCheckoutInput'>
  >;
  SimulatedCheckoutOutcome: Equals<topUps.SimulatedCheckoutOutcome, SchemaType<'SimulatedCheckoutOutcome'>>;
  BalanceAlertInput: Equals<topUps.BalanceAlertInput, SchemaType<'BalanceAlertInput'>>;
  BillingContact: Equals<topUps.BillingContact, SchemaType<'BillingContact'>>;
  CreateCompanyInput: Equals<companies.CreateCompanyInput, SchemaType<'CreateCompanyInput'>>;
  UpdateCompanyInput: Equals<companies.UpdateCompanyInput, SchemaType<'UpdateCompanyInput'>>;
  CompanyIdInput: Equals<companies.CompanyIdInput, SchemaType<'CompanyIdInput'>>;
  ListCompaniesInput: Equals<companies.ListCompaniesInput, SchemaType<'ListCompaniesInput'>>;
  Company: Equals<companies.Company, SchemaType<'Company'>>;
  CompanyDeleted: Equals<companies.CompanyDeleted, SchemaType<'CompanyDeleted'>>;
  CompanyKycSession: Equals<companies.CompanyKycSession, SchemaType<'CompanyKycSession'>>;
  CompanyKycStatus: Equals<companies.CompanyKycStatus, SchemaType<'CompanyKycStatus'>>;
  RecordCompanyKycInput: Equals<companies.RecordCompanyKycInput, SchemaType<'RecordCompanyKycInput'>>;
  CreateCreditNoteInput: Equals<creditNotes.CreateCreditNoteInput, SchemaType<'CreateCreditNoteInput'>>;
  CreditNoteListInput: Equals<creditNotes.CreditNoteListInput, SchemaType<'CreditNoteListInput'>>;
  CreditNoteIdInput: Equals<creditNotes.CreditNoteIdInput, SchemaType<'CreditNoteIdInput'>>;
  CreditNoteDownloadInput: Equals<creditNotes.CreditNoteDownloadInput, SchemaType<'CreditNoteDownloadInput'>>;
  CreditNoteFileInput: Equals<creditNotes.CreditNoteFileInput, SchemaType<'CreditNoteFileInput'>>;
  RemainingCreditableInput: Equals<creditNotes.RemainingCreditableInput, SchemaType<'RemainingCreditableInput'>>;
  GeneratedCreditNoteDocuments: Equals<
    creditNotes.GeneratedCreditNoteDocuments,
    SchemaType<'GeneratedCreditNoteDocuments'>
  >;
  FecExportInput: Equals<fec.FecExportInput, SchemaType<'FecExportInput'>>;
  ReplayFiscalRulesInput: Equals<fec.ReplayFiscalRulesInput, SchemaType<'ReplayFiscalRulesInput'>>;
  FiscalRulesReplay: Equals<fec.FiscalRulesReplay, SchemaType<'FiscalRulesReplay'>>;
  FiscalAnchorsInput: Equals<fiscalAnchors.FiscalAnchorsInput, SchemaType<'FiscalAnchorsInput'>>;
  FiscalAnchorFileInput: Equals<fiscalAnchors.FiscalAnchorFileInput, SchemaType<'FiscalAnchorFileInput'>>;
  AnchorToStampInput: Equals<fiscalAnchors.AnchorToStampInput, SchemaType<'AnchorToStampInput'>>;
  AnchorToStamp: Equals<fiscalAnchors.AnchorToStamp, SchemaType<'AnchorToStamp'>>;
  RecordAnchorAttemptInput: Equals<fiscalAnchors.RecordAnchorAttemptInput, SchemaType<'RecordAnchorAttemptInput'>>;
  CompleteFiscalAnchorInput: Equals<fiscalAnchors.CompleteFiscalAnchorInput, SchemaType<'CompleteFiscalAnchorInput'>>;
  FiscalAttestationInput: Equals<fiscalAttestations.FiscalAttestationInput, SchemaType<'FiscalAttestationInput'>>;
  IscaDocumentInput: Equals<fiscalAttestations.IscaDocumentInput, SchemaType<'IscaDocumentInput'>>;
  ClosingAmounts: Equals<fiscalClosings.ClosingAmounts, SchemaType<'ClosingAmounts'>>;
  ClosingTotals: Equals<fiscalClosings.ClosingTotals, SchemaType<'ClosingTotals'>>;
  PerformDailyClosingInput: Equals<fiscalClosings.PerformDailyClosingInput, SchemaType<'PerformDailyClosingInput'>>;
  FiscalClosingsInput: Equals<fiscalClosings.FiscalClosingsInput, SchemaType<'FiscalClosingsInput'>>;
  CloseFiscalChainInput: Equals<fiscalClosings.CloseFiscalChainInput, SchemaType<'CloseFiscalChainInput'>>;
  CloseFiscalChainResult: Equals<fiscalClosings.CloseFiscalChainResult, SchemaType<'CloseFiscalChainResult'>>;
  FiscalComplianceInput: Equals<fiscalCompliance.FiscalComplianceInput, SchemaType<'FiscalComplianceInput'>>;
  ForensicExportInput: Equals<fiscalCompliance.ForensicExportInput, SchemaType<'ForensicExportInput'>>;
  FecJournalsRuleValue: Equals<fiscalRules.FecJournalsRuleValue, SchemaType<'FecJournalsRuleValue'>>;
  FecAccountsRuleValue: Equals<fiscalRules.FecAccountsRuleValue, SchemaType<'FecAccountsRuleValue'>>;
  VatRoundingRuleValue: Equals<fiscalRules.VatRoundingRuleValue, SchemaType<'VatRoundingRuleValue'>>;
  FiscalRulesInput: Equals<fiscalRules.FiscalRulesInput, SchemaType<'FiscalRulesInput'>>;
  FiscalRuleInput: Equals<fiscalRules.FiscalRuleInput, SchemaType<'FiscalRuleInput'>>;
  FiscalRuleHistoryInput: Equals<fiscalRules.FiscalRuleHistoryInput, SchemaType<'FiscalRuleHistoryInput'>>;
  CreateFiscalRuleInput: Equals<fiscalRules.CreateFiscalRuleInput, SchemaType<'CreateFiscalRuleInput'>>;
  UpdateFiscalRuleInput: Equals<fiscalRules.UpdateFiscalRuleInput, SchemaType<'UpdateFiscalRuleInput'>>;
  FiscalRule: Equals<fiscalRules.FiscalRule, SchemaType<'FiscalRule'>>;
  FiscalIntegrityInput: Equals<fiscal.FiscalIntegrityInput, SchemaType<'FiscalIntegrityInput'>>;
  FiscalIntegrityDateInput: Equals<fiscal.FiscalIntegrityDateInput, SchemaType<'FiscalIntegrityDateInput'>>;
  FiscalIntegrityReport: Equals<fiscal.FiscalIntegrityReport, SchemaType<'FiscalIntegrityReport'>>;
  FiscalIntegrityHistoryInput: Equals<fiscal.FiscalIntegrityHistoryInput, SchemaType<'FiscalIntegrityHistoryInput'>>;
  FiscalIntegrityHistory: Equals<fiscal.FiscalIntegrityHistory, SchemaType<'FiscalIntegrityHistory'>>;
  ActivateKillSwitchInput: Equals<fiscal.ActivateKillSwitchInput, SchemaType<'ActivateKillSwitchInput'>>;
  DeactivateKillSwitchInput: Equals<fiscal.DeactivateKillSwitchInput, SchemaType<'DeactivateKillSwitchInput'>>;
  FiscalEntriesInput: Equals<fiscal.FiscalEntriesInput, SchemaType<'FiscalEntriesInput'>>;
  FiscalEntriesPage: Equals<fiscal.FiscalEntriesPage, SchemaType<'FiscalEntriesPage'>>;
  InboundCallbackInput: Equals<inboundEvents.InboundCallbackInput, SchemaType<'InboundCallbackInput'>>;
  InboundEventInput: Equals<inboundEvents.InboundEventInput, SchemaType<'InboundEventInput'>>;
  InboundEventOutcome: Equals<inboundEvents.InboundEventOutcome, SchemaType<'InboundEventOutcome'>>;
  RegisterIncomingInvoiceInput: Equals<
    incomingInvoices.RegisterIncomingInvoiceInput,
    SchemaType<'RegisterIncomingInvoiceInput'>
  >;
  IncomingInvoiceListInput: Equals<incomingInvoices.IncomingInvoiceListInput, SchemaType<'IncomingInvoiceListInput'>>;
  SubTenantIncomingInvoiceListInput: Equals<
    incomingInvoices.SubTenantIncomingInvoiceListInput,
    SchemaType<'SubTenantIncomingInvoiceListInput'>
  >;
  IncomingInvoiceIdInput: Equals<incomingInvoices.IncomingInvoiceIdInput, SchemaType<'IncomingInvoiceIdInput'>>;
  RejectIncomingInvoiceInput: Equals<
    incomingInvoices.RejectIncomingInvoiceInput,
    SchemaType<'RejectIncomingInvoiceInput'>
  >;
  DisputeIncomingInvoiceInput: Equals<
    incomingInvoices.DisputeIncomingInvoiceInput,
    SchemaType<'DisputeIncomingInvoiceInput'>
  >;
  MarkIncomingInvoicePaidInput: Equals<
    incomingInvoices.MarkIncomingInvoicePaidInput,
    SchemaType<'MarkIncomingInvoicePaidInput'>
  >;
  IncomingInvoice: Equals<incomingInvoices.IncomingInvoice, SchemaType<'IncomingInvoice'>>;
  SyncIncomingInvoicesInput: Equals<
    incomingInvoices.SyncIncomingInvoicesInput,
    SchemaType<'SyncIncomingInvoicesInput'>
  >;
  IncomingSyncOutcome: Equals<incomingInvoices.IncomingSyncOutcome, SchemaType<'IncomingSyncOutcome'>>;
  StoreIncomingPageInput: Equals<incomingInvoices.StoreIncomingPageInput, SchemaType<'StoreIncomingPageInput'>>;
  IncomingSyncCursor: Equals<incomingInvoices.IncomingSyncCursor, SchemaType<'IncomingSyncCursor'>>;
  ScheduleIncomingSyncsInput: Equals<
    incomingInvoices.ScheduleIncomingSyncsInput,
    SchemaType<'ScheduleIncomingSyncsInput'>
  >;
  IncomingStatusSendInput: Equals<incomingInvoices.IncomingStatusSendInput, SchemaType<'IncomingStatusSendInput'>>;
  IncomingStatusToSend: Equals<incomingInvoices.IncomingStatusToSend, SchemaType<'IncomingStatusToSend'>>;
  InvoiceDownloadInput: Equals<invoiceReading.InvoiceDownloadInput, SchemaType<'InvoiceDownloadInput'>>;
  SandboxInvoiceDownloadInput: Equals<
    invoiceReading.SandboxInvoiceDownloadInput,
    SchemaType<'SandboxInvoiceDownloadInput'>
  >;
  DownloadLink: Equals<invoiceReading.DownloadLink, SchemaType<'DownloadLink'>>;
  InvoiceFileInput: Equals<invoiceReading.InvoiceFileInput, SchemaType<'InvoiceFileInput'>>;
  InvoiceAuditTrail: Equals<invoiceReading.InvoiceAuditTrail, SchemaType<'InvoiceAuditTrail'>>;
  CreateInvoiceInput: Equals<invoices.CreateInvoiceInput, SchemaType<'CreateInvoiceInput'>>;
  CreateTenantInvoiceInput: Equals<invoices.CreateTenantInvoiceInput, SchemaType<'CreateTenantInvoiceInput'>>;
  BulkCreateInvoicesInput: Equals<invoices.BulkCreateInvoicesInput, SchemaType<'BulkCreateInvoicesInput'>>;
  BulkCreateInvoicesResult: Equals<invoices.BulkCreateInvoicesResult, SchemaType<'BulkCreateInvoicesResult'>>;
  Invoice: Equals<invoices.Invoice, SchemaType<'Invoice'>>;
  InvoiceListInput: Equals<invoices.InvoiceListInput, SchemaType<'InvoiceListInput'>>;
  InvoiceIdInput: Equals<invoices.InvoiceIdInput, SchemaType<'InvoiceIdInput'>>;
  GeneratedDocuments: Equals<invoices.GeneratedDocuments, SchemaType<'GeneratedDocuments'>>;
  InvoiceDocumentsInput: Equals<invoices.InvoiceDocumentsInput, SchemaType<'InvoiceDocumentsInput'>>;
  GeneratedDocumentsBatch: Equals<invoices.GeneratedDocumentsBatch, SchemaType<'GeneratedDocumentsBatch'>>;
  ConvertInvoiceInput: Equals<invoices.ConvertInvoiceInput, SchemaType<'ConvertInvoiceInput'>>;
  InvoiceConversion: Equals<invoices.InvoiceConversion, SchemaType<'InvoiceConversion'>>;
  PurgeResult: Equals<maintenance.PurgeResult, SchemaType<'PurgeResult'>>;
  HealthStatus: Equals<platform.HealthStatus, SchemaType<'HealthStatus'>>;
  Pricing: Equals<platform.Pricing, SchemaType<'Pricing'>>;
  ListSubTenantsInput: Equals<subTenants.ListSubTenantsInput, SchemaType<'ListSubTenantsInput'>>;
  CreateSubTenantInput: Equals<subTenants.CreateSubTenantInput, SchemaType<'CreateSubTenantInput'>>;
  UpdateSubTenantInput: Equals<subTenants.UpdateSubTenantInput, SchemaType<'UpdateSubTenantInput'>>;
  SubTenantIdInput: Equals<subTenants.SubTenantIdInput, SchemaType<'SubTenantIdInput'>>;
  FindSubTenantByExternalIdInput: Equals<
    subTenants.FindSubTenantByExternalIdInput,
    SchemaType<'FindSubTenantByExternalIdInput'>
  >;
  SubTenantStatsInput: Equals<subTenants.SubTenantStatsInput, SchemaType<'SubTenantStatsInput'>>;
  SubTenant: Equals<subTenants.SubTenant, SchemaType<'SubTenant'>>;
  SubTenantDeleted: Equals<subTenants.SubTenantDeleted, SchemaType<'SubTenantDeleted'>>;
  SubTenantStatsOverview: Equals<subTenants.SubTenantStatsOverview, SchemaType<'SubTenantStatsOverview'>>;
  RegisterTenantInput: Equals<tenantAuth.RegisterTenantInput, SchemaType<'RegisterTenantInput'>>;
  TenantCredentials: Equals<tenantAuth.TenantCredentials, SchemaType<'TenantCredentials'>>;
  LoginTenantInput: Equals<tenantAuth.LoginTenantInput, SchemaType<'LoginTenantInput'>>;
  TenantToken: Equals<tenantAuth.TenantToken, SchemaType<'TenantToken'>>;
  TenantLogoutResult: Equals<tenantAuth.TenantLogoutResult, SchemaType<'TenantLogoutResult'>>;
  TenantAccount: Equals<tenantAuth.TenantAccount, SchemaType<'TenantAccount'>>;
  TenantKey: Equals<tenantAuth.TenantKey, SchemaType<'TenantKey'>>;
  TenantKeyList: Equals<tenantAuth.TenantKeyList, SchemaType<'TenantKeyList'>>;
  CreateTenantKeyInput: Equals<tenantAuth.CreateTenantKeyInput, SchemaType<'CreateTenantKeyInput'>>;
  CreateTenantSecretKeyInput: Equals<tenantAuth.CreateTenantSecretKeyInput, SchemaType<'CreateTenantSecretKeyInput'>>;
  NewTenantKey: Equals<tenantAuth.NewTenantKey, SchemaType<'NewTenantKey'>>;
  KeyRegeneration: Equals<tenantAuth.KeyRegeneration, SchemaType<'KeyRegeneration'>>;
  TenantProfile: Equals<tenantProfile.TenantProfile, SchemaType<'TenantProfile'>>;
  UpdatedTenantProfile: Equals<tenantProfile.UpdatedTenantProfile, SchemaType<'UpdatedTenantProfile'>>;
  UpdateTenantProfileInput: Equals<tenantProfile.UpdateTenantProfileInput, SchemaType<'UpdateTenantProfileInput'>>;
  TenantStats: Equals<tenantProfile.TenantStats, SchemaType<'TenantStats'>>;
  CreateTenantInput: Equals<tenants.CreateTenantInput, SchemaType<'CreateTenantInput'>>;
  CreatedTenant: Equals<tenants.CreatedTenant, SchemaType<'CreatedTenant'>>;
  InvoiceJobInput: Equals<transmissionJobs.InvoiceJobInput, SchemaType<'InvoiceJobInput'>>;
  TransmissionPlan: Equals<transmissionJobs.TransmissionPlan, SchemaType<'TransmissionPlan'>>;
  UploadOutcomeInput: Equals<transmissionJobs.UploadOutcomeInput, SchemaType<'UploadOutcomeInput'>>;
  UploadOutcome: Equals<transmissionJobs.UploadOutcome, SchemaType<'UploadOutcome'>>;
  ConnectionIdInput: Equals<transmissionJobs.ConnectionIdInput, SchemaType<'ConnectionIdInput'>>;
  SyncCursor: Equals<transmissionJobs.SyncCursor, SchemaType<'SyncCursor'>>;
  ProviderEventsInput: Equals<transmissionJobs.ProviderEventsInput, SchemaType<'ProviderEventsInput'>>;
  ProviderEventsOutcome: Equals<transmissionJobs.ProviderEventsOutcome, SchemaType<'ProviderEventsOutcome'>>;
  ConnectionsToSync: Equals<transmissionJobs.ConnectionsToSync, SchemaType<'ConnectionsToSync'>>;
  ConnectProviderInput: Equals<transmissionJobs.ConnectProviderInput, SchemaType<'ConnectProviderInput'>>;
  ProviderConnection: Equals<transmissionJobs.ProviderConnection, SchemaType<'ProviderConnection'>>;
  StatusTarget: Equals<transmissionJobs.StatusTarget, SchemaType<'StatusTarget'>>;
  InvoiceIdsInput: Equals<transmission.InvoiceIdsInput, SchemaType<'InvoiceIdsInput'>>;
  InvoiceTransmissionStatus: Equals<transmission.InvoiceTransmissionStatus, SchemaType<'InvoiceTransmissionStatus'>>;
  SimulateLifecycleInput: Equals<transmission.SimulateLifecycleInput, SchemaType<'SimulateLifecycleInput'>>;
  MarkInvoicePaidInput: Equals<transmission.MarkInvoicePaidInput, SchemaType<'MarkInvoicePaidInput'>>;
  CreateAdminInput: Equals<users.CreateAdminInput, SchemaType<'CreateAdminInput'>>;
  CreatedAdmin: Equals<users.CreatedAdmin, SchemaType<'CreatedAdmin'>>;
  DispatchEventsInput: Equals<webhookDeliveries.DispatchEventsInput, SchemaType<'DispatchEventsInput'>>;
  PrepareWebhookDeliveryInput: Equals<
    webhookDeliveries.PrepareWebhookDeliveryInput,
    SchemaType<'PrepareWebhookDeliveryInput'>
  >;
  PrepareWebhookDeliveriesInput: Equals<
    webhookDeliveries.PrepareWebhookDeliveriesInput,
    SchemaType<'PrepareWebhookDeliveriesInput'>
  >;
  WebhookRequest: Equals<webhookDeliveries.WebhookRequest, SchemaType<'WebhookRequest'>>;
  PreparedWebhookDelivery: Equals<webhookDeliveries.PreparedWebhookDelivery, SchemaType<'PreparedWebhookDelivery'>>;
  RecordWebhookAttemptInput: Equals<
    webhookDeliveries.RecordWebhookAttemptInput,
    SchemaType<'RecordWebhookAttemptInput'>
  >;
  RecordWebhookAttemptsInput: Equals<
    webhookDeliveries.RecordWebhookAttemptsInput,
    SchemaType<'RecordWebhookAttemptsInput'>
  >;
  RecordedWebhookAttempt: Equals<webhookDeliveries.RecordedWebhookAttempt, SchemaType<'RecordedWebhookAttempt'>>;
  RecordWebhookTestInput: Equals<webhookDeliveries.RecordWebhookTestInput, SchemaType<'RecordWebhookTestInput'>>;
  WebhookDisabledNoticeInput: Equals<
    webhookDeliveries.WebhookDisabledNoticeInput,
    SchemaType<'WebhookDisabledNoticeInput'>
  >;
  WebhookDisabledNotice: Equals<webhookDeliveries.WebhookDisabledNotice, SchemaType<'WebhookDisabledNotice'>>;
  ListWebhookLogsInput: Equals<webhookLogs.ListWebhookLogsInput, SchemaType<'ListWebhookLogsInput'>>;
  ListTenantWebhookLogsInput: Equals<webhookLogs.ListTenantWebhookLogsInput, SchemaType<'ListTenantWebhookLogsInput'>>;
  WebhookLog: Equals<webhookLogs.WebhookLog, SchemaType<'WebhookLog'>>;
  CreateWebhookEndpointInput: Equals<webhooks.CreateWebhookEndpointInput, SchemaType<'CreateWebhookEndpointInput'>>;
  UpdateWebhookEndpointInput: Equals<webhooks.UpdateWebhookEndpointInput, SchemaType<'UpdateWebhookEndpointInput'>>;
  WebhookEndpointIdInput: Equals<webhooks.WebhookEndpointIdInput, SchemaType<'WebhookEndpointIdInput'>>;
  ListWebhookEndpointsInput: Equals<webhooks.ListWebhookEndpointsInput, SchemaType<'ListWebhookEndpointsInput'>>;
  WebhookTestResult: Equals<webhooks.WebhookTestResult, SchemaType<'WebhookTestResult'>>;
  OpenapiVerification: Equals<signatureProviderAdmin.OpenapiVerification, SchemaType<'OpenapiVerification'>>;
  OpenapiConfig: Equals<signatureProviderAdmin.OpenapiConfig, SchemaType<'OpenapiConfig'>>;
  SaveOpenapiConfigInput: Equals<signatureProviderAdmin.SaveOpenapiConfigInput, SchemaType<'SaveOpenapiConfigInput'>>;
  OpenapiCredit: Equals<signatureProviderAdmin.OpenapiCredit, SchemaType<'OpenapiCredit'>>;
  OpenapiTokenList: Equals<signatureProviderAdmin.OpenapiTokenList, SchemaType<'OpenapiTokenList'>>;
  CreatedOpenapiToken: Equals<signatureProviderAdmin.CreatedOpenapiToken, SchemaType<'CreatedOpenapiToken'>>;
  CreateOpenapiTokenInput: Equals<
    signatureProviderAdmin.CreateOpenapiTokenInput,
    SchemaType<'CreateOpenapiTokenInput'>
  >;
  OpenapiTokenIdInput: Equals<signatureProviderAdmin.OpenapiTokenIdInput, SchemaType<'OpenapiTokenIdInput'>>;
  OpenapiTokenDeleted: Equals<signatureProviderAdmin.OpenapiTokenDeleted, SchemaType<'OpenapiTokenDeleted'>>;
  UploadKybDocumentInput: Equals<kyb.UploadKybDocumentInput, SchemaType<'UploadKybDocumentInput'>>;
  KybDocumentIdInput: Equals<kyb.KybDocumentIdInput, SchemaType<'KybDocumentIdInput'>>;
  KybDocument: Equals<kyb.KybDocument, SchemaType<'KybDocument'>>;
  KybDocumentList: Equals<kyb.KybDocumentList, SchemaType<'KybDocumentList'>>;
  DeletedKybDocument: Equals<kyb.DeletedKybDocument, SchemaType<'DeletedKybDocument'>>;
  KybStatus: Equals<kyb.KybStatus, SchemaType<'KybStatus'>>;
  ListPendingKybInput: Equals<kyb.ListPendingKybInput, SchemaType<'ListPendingKybInput'>>;
  PendingKybTenant: Equals<kyb.PendingKybTenant, SchemaType<'PendingKybTenant'>>;
  PendingKybPage: Equals<kyb.PendingKybPage, SchemaType<'PendingKybPage'>>;
  ReviewKybDocumentInput: Equals<kyb.ReviewKybDocumentInput, SchemaType<'ReviewKybDocumentInput'>>;
  ApplyKybReviewInput: Equals<kyb.ApplyKybReviewInput, SchemaType<'ApplyKybReviewInput'>>;
  KybReview: Equals<kyb.KybReview, SchemaType<'KybReview'>>;
  KybMailNotice: Equals<kyb.KybMailNotice, SchemaType<'KybMailNotice'>>;
  CreateOnboardingSessionInput: Equals<
    onboarding.CreateOnboardingSessionInput,
    SchemaType<'CreateOnboardingSessionInput'>
  >;
  CreateTenantOnboardingSessionInput: Equals<
    onboarding.CreateTenantOnboardingSessionInput,
    SchemaType<'CreateTenantOnboardingSessionInput'>
  >;
  OnboardingSessionIdInput: Equals<onboarding.OnboardingSessionIdInput, SchemaType<'OnboardingSessionIdInput'>>;
  OnboardingSession: Equals<onboarding.OnboardingSession, SchemaType<'OnboardingSession'>>;
  OnboardingAuthorizeInput: Equals<onboarding.OnboardingAuthorizeInput, SchemaType<'OnboardingAuthorizeInput'>>;
  OnboardingAuthorization: Equals<onboarding.OnboardingAuthorization, SchemaType<'OnboardingAuthorization'>>;
  OnboardingCallbackInput: Equals<onboarding.OnboardingCallbackInput, SchemaType<'OnboardingCallbackInput'>>;
  OnboardingCallbackResult: Equals<onboarding.OnboardingCallbackResult, SchemaType<'OnboardingCallbackResult'>>;
  TenantOnboardingCallbackResult: Equals<
    onboarding.TenantOnboardingCallbackResult,
    SchemaType<'TenantOnboardingCallbackResult'>
  >;
  ExchangeOnboardingCodeInput: Equals<
    onboarding.ExchangeOnboardingCodeInput,
    SchemaType<'ExchangeOnboardingCodeInput'>
  >;
  OnboardingCredentials: Equals<onboarding.OnboardingCredentials, SchemaType<'OnboardingCredentials'>>;
  ExchangeTenantOnboardingCodeInput: Equals<
    onboarding.ExchangeTenantOnboardingCodeInput,
    SchemaType<'ExchangeTenantOnboardingCodeInput'>
  >;
  SubTenantOnboardingCredentials: Equals<
    onboarding.SubTenantOnboardingCredentials,
    SchemaType<'SubTenantOnboardingCredentials'>
  >;
  OnboardingRedirectInput: Equals<onboarding.OnboardingRedirectInput, SchemaType<'OnboardingRedirectInput'>>;
  OnboardingRedirectPage: Equals<onboarding.OnboardingRedirectPage, SchemaType<'OnboardingRedirectPage'>>;
  OnboardingSimulatorRequest: Equals<onboarding.OnboardingSimulatorRequest, SchemaType<'OnboardingSimulatorRequest'>>;
  OnboardingSimulatorView: Equals<onboarding.OnboardingSimulatorView, SchemaType<'OnboardingSimulatorView'>>;
  OnboardingSimulatorDecision: Equals<
    onboarding.OnboardingSimulatorDecision,
    SchemaType<'OnboardingSimulatorDecision'>
  >;
  OnboardingSimulatorRedirect: Equals<
    onboarding.OnboardingSimulatorRedirect,
    SchemaType<'OnboardingSimulatorRedirect'>
  >;
  ResumeOnboardingInput: Equals<onboarding.ResumeOnboardingInput, SchemaType<'ResumeOnboardingInput'>>;
  OnboardingReviewInput: Equals<onboarding.OnboardingReviewInput, SchemaType<'OnboardingReviewInput'>>;
  OnboardingReviewOutcome: Equals<onboarding.OnboardingReviewOutcome, SchemaType<'OnboardingReviewOutcome'>>;
  OnboardingClaim: Equals<onboarding.OnboardingClaim, SchemaType<'OnboardingClaim'>>;
  CompleteOnboardingInput: Equals<onboarding.CompleteOnboardingInput, SchemaType<'CompleteOnboardingInput'>>;
  OnboardingRedemption: Equals<onboarding.OnboardingRedemption, SchemaType<'OnboardingRedemption'>>;
  RedeemOnboardingCodeInput: Equals<onboarding.RedeemOnboardingCodeInput, SchemaType<'RedeemOnboardingCodeInput'>>;
  OnboardingReviewTarget: Equals<onboarding.OnboardingReviewTarget, SchemaType<'OnboardingReviewTarget'>>;
  RecordOnboardingReviewInput: Equals<
    onboarding.RecordOnboardingReviewInput,
    SchemaType<'RecordOnboardingReviewInput'>
  >;
  CreateQuoteInput: Equals<quotes.CreateQuoteInput, SchemaType<'CreateQuoteInput'>>;
  UpdateQuoteInput: Equals<quotes.UpdateQuoteInput, SchemaType<'UpdateQuoteInput'>>;
  QuoteIdInput: Equals<quotes.QuoteIdInput, SchemaType<'QuoteIdInput'>>;
  CancelQuoteInput: Equals<quotes.CancelQuoteInput, SchemaType<'CancelQuoteInput'>>;
  QuoteListInput: Equals<quotes.QuoteListInput, SchemaType<'QuoteListInput'>>;
  ConvertQuoteToDepositInput: Equals<quotes.ConvertQuoteToDepositInput, SchemaType<'ConvertQuoteToDepositInput'>>;
  ConvertQuoteToBalanceInput: Equals<quotes.ConvertQuoteToBalanceInput, SchemaType<'ConvertQuoteToBalanceInput'>>;
  Quote: Equals<quotes.Quote, SchemaType<'Quote'>>;
  QuoteAuditLog: Equals<quotes.QuoteAuditLog, SchemaType<'QuoteAuditLog'>>;
  QuoteTokenInput: Equals<quotes.QuoteTokenInput, SchemaType<'QuoteTokenInput'>>;
  AcceptQuoteInput: Equals<quotes.AcceptQuoteInput, SchemaType<'AcceptQuoteInput'>>;
  RefuseQuoteInput: Equals<quotes.RefuseQuoteInput, SchemaType<'RefuseQuoteInput'>>;
  QuotePageView: Equals<quotes.QuotePageView, SchemaType<'QuotePageView'>>;
  AdminQuoteListInput: Equals<quotes.AdminQuoteListInput, SchemaType<'AdminQuoteListInput'>>;
  AdminQuote: Equals<quotes.AdminQuote, SchemaType<'AdminQuote'>>;
  AdminQuoteIdInput: Equals<quotes.AdminQuoteIdInput, SchemaType<'AdminQuoteIdInput'>>;
  AdminQuoteStats: Equals<quotes.AdminQuoteStats, SchemaType<'AdminQuoteStats'>>;
  QuoteIntegrityReport: Equals<quotes.QuoteIntegrityReport, SchemaType<'QuoteIntegrityReport'>>;
  QuoteAuditExportInput: Equals<quotes.QuoteAuditExportInput, SchemaType<'QuoteAuditExportInput'>>;
  QuoteJobInput: Equals<quotes.QuoteJobInput, SchemaType<'QuoteJobInput'>>;
  QuoteExpiryResult: Equals<quotes.QuoteExpiryResult, SchemaType<'QuoteExpiryResult'>>;
  QuoteMail: Equals<quotes.QuoteMail, SchemaType<'QuoteMail'>>;
};
type EveryValueTrue<T extends Record<string, true>> = T;

/** Fails to compile, naming the schema, when its named type differs from the derived one. */
export type NamedTypesMatch = EveryValueTrue<NamedTypes>;
