import type { RouteSpec } from '../http/route-spec.js';
import { adminRoutes } from './admin.routes.js';
import { adminOpenapiRoutes } from './admin-openapi.routes.js';
import { adminQuoteRoutes } from './admin-quotes.routes.js';
import { adminSubTenantRoutes } from './admin-sub-tenants.routes.js';
import { apiKeyRoutes } from './api-keys.routes.js';
import { authRoutes } from './auth.routes.js';
import { balanceRoutes } from './balance.routes.js';
import { companyRoutes } from './companies.routes.js';
import { creditNoteFileRoutes, creditNoteRoutes, tenantCreditNoteRoutes } from './credit-notes.routes.js';
import { fecRoutes } from './fec.routes.js';
import { fiscalRoutes } from './fiscal.routes.js';
import { fiscalClosingRoutes } from './fiscal-closings.routes.js';
import { fiscalExportFileRoutes, fiscalExportRoutes } from './fiscal-exports.routes.js';
import { fiscalRuleRoutes } from './fiscal-rules.routes.js';
import { incomingInvoiceRoutes, tenantIncomingInvoiceRoutes } from './incoming-invoices.routes.js';
import {
  invoiceFileRoutes,
  invoiceReadingRoutes,
  invoiceRoutes,
  sandboxInvoiceReadingRoutes,
  sandboxInvoiceRoutes,
  tenantInvoiceReadingRoutes,
  tenantInvoiceRoutes,
} from './invoices.routes.js';
import { adminKybRoutes, kybRoutes } from './kyb.routes.js';
import { onboardingRoutes } from './onboarding.routes.js';
import { platformRoutes } from './platform.routes.js';
import { quotePageRoutes, quoteRoutes } from './quotes.routes.js';
import {
  openapiCallbackRoutes,
  sandboxSignatureRoutes,
  signatureFileRoutes,
  signatureRoutes,
} from './signatures.routes.js';
import { signingPageRoutes } from './signing-page.routes.js';
import { subTenantRoutes } from './sub-tenants.routes.js';
import { tenantAuthRoutes } from './tenant-auth.routes.js';
import { tenantBillingRoutes } from './tenant-billing.routes.js';
import { tenantProfileRoutes } from './tenant-profile.routes.js';
import { stripeCallbackRoutes, topUpRoutes } from './top-ups.routes.js';
import { superpdpCallbackRoutes, transmissionRoutes } from './transmission.routes.js';
import { webhookRoutes } from './webhooks.routes.js';

/** Every route table of the service except the OpenAPI route, which app.ts adds over all of them. */
export const ROUTES: readonly RouteSpec[] = [
  ...platformRoutes,
  ...balanceRoutes,
  ...authRoutes,
  ...companyRoutes,
  ...apiKeyRoutes,
  ...tenantAuthRoutes,
  ...onboardingRoutes,
  ...tenantProfileRoutes,
  ...tenantBillingRoutes,
  ...topUpRoutes,
  ...kybRoutes,
  ...subTenantRoutes,
  // Before the invoice routes: `/v1/invoices/incoming` must not be read as `/v1/invoices/{id}`.
  ...incomingInvoiceRoutes,
  ...tenantIncomingInvoiceRoutes,
  ...invoiceRoutes,
  ...tenantInvoiceRoutes,
  ...sandboxInvoiceRoutes,
  ...invoiceReadingRoutes,
  ...tenantInvoiceReadingRoutes,
  ...sandboxInvoiceReadingRoutes,
  ...invoiceFileRoutes,
  ...creditNoteRoutes,
  ...tenantCreditNoteRoutes,
  ...creditNoteFileRoutes,
  ...quoteRoutes,
  ...quotePageRoutes,
  ...signatureRoutes,
  ...sandboxSignatureRoutes,
  ...signatureFileRoutes,
  ...openapiCallbackRoutes,
  ...signingPageRoutes,
  ...fiscalRoutes,
  ...fiscalRuleRoutes,
  ...fecRoutes,
  ...webhookRoutes,
  ...fiscalClosingRoutes,
  ...transmissionRoutes,
  ...superpdpCallbackRoutes,
  ...stripeCallbackRoutes,
  ...fiscalExportRoutes,
  ...fiscalExportFileRoutes,
  ...adminOpenapiRoutes,
  ...adminKybRoutes,
  ...adminRoutes,
  ...adminSubTenantRoutes,
  ...adminQuoteRoutes,
];
