import { adminSchemas } from './admin.js';
import { apiKeySchemas } from './api-keys.js';
import { authSchemas } from './auth.js';
import { billingSchemas } from './billing.js';
import { billingInvoiceSchemas } from './billing-invoices.js';
import { billingUsageSchemas } from './billing-usage.js';
import { commonSchemas } from './common.js';
import { companySchemas } from './companies.js';
import { creditNoteSchemas } from './credit-notes.js';
import { fecSchemas } from './fec.js';
import { fiscalSchemas } from './fiscal.js';
import { fiscalAnchorSchemas } from './fiscal-anchors.js';
import { fiscalAttestationSchemas } from './fiscal-attestations.js';
import { fiscalClosingSchemas } from './fiscal-closings.js';
import { fiscalComplianceSchemas } from './fiscal-compliance.js';
import { fiscalRuleSchemas } from './fiscal-rules.js';
import { inboundEventSchemas } from './inbound-events.js';
import { incomingInvoiceSchemas } from './incoming-invoices.js';
import { invoiceReadingSchemas } from './invoice-reading.js';
import { invoiceSchemas } from './invoices.js';
import { kybSchemas } from './kyb.js';
import { maintenanceSchemas } from './maintenance.js';
import { mcpSchemas } from './mcp.js';
import { onboardingSchemas } from './onboarding.js';
import { platformSchemas } from './platform.js';
import { quoteSchemas } from './quotes.js';
import type { JsonSchema } from './registry.js';
import { signatureProviderAdminSchemas } from './signature-provider-admin.js';
import { signatureProviderJobSchemas } from './signature-provider-jobs.js';
import { signatureSchemas } from './signatures.js';
import { signingPageSchemas } from './signing-page.js';
import { subTenantSchemas } from './sub-tenants.js';
import { tenantAuthSchemas } from './tenant-auth.js';
import { tenantProfileSchemas } from './tenant-profile.js';
import { tenantSchemas } from './tenants.js';
import { topUpSchemas } from './top-ups.js';
import { transmissionSchemas } from './transmission.js';
import { transmissionJobSchemas } from './transmission-jobs.js';
import { userSchemas } from './users.js';
import { webhookDeliverySchemas } from './webhook-deliveries.js';
import { webhookLogSchemas } from './webhook-logs.js';
import { webhookSchemas } from './webhooks.js';

/** Every schema of the service, registered once in ajv and emitted in OpenAPI and MCP. */
export const ALL_SCHEMAS: readonly JsonSchema[] = [
  ...commonSchemas,
  ...mcpSchemas,
  ...platformSchemas,
  ...tenantSchemas,
  ...userSchemas,
  ...billingSchemas,
  ...billingInvoiceSchemas,
  ...billingUsageSchemas,
  ...topUpSchemas,
  ...webhookSchemas,
  ...webhookDeliverySchemas,
  ...webhookLogSchemas,
  ...inboundEventSchemas,
  ...companySchemas,
  ...maintenanceSchemas,
  ...subTenantSchemas,
  ...apiKeySchemas,
  ...tenantAuthSchemas,
  ...tenantProfileSchemas,
  ...kybSchemas,
  ...authSchemas,
  ...invoiceSchemas,
  ...fiscalSchemas,
  ...fiscalRuleSchemas,
  ...fecSchemas,
  ...fiscalClosingSchemas,
  ...fiscalAnchorSchemas,
  ...fiscalComplianceSchemas,
  ...fiscalAttestationSchemas,
  ...invoiceReadingSchemas,
  ...incomingInvoiceSchemas,
  ...creditNoteSchemas,
  ...quoteSchemas,
  ...signatureSchemas,
  ...signatureProviderJobSchemas,
  ...signatureProviderAdminSchemas,
  ...adminSchemas,
  ...signingPageSchemas,
  ...transmissionSchemas,
  ...transmissionJobSchemas,
  ...onboardingSchemas,
];
