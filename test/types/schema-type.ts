import type { FromSchema } from 'json-schema-to-ts';
import type { adminSchemas } from '../../schemas/admin.js';
import type { apiKeySchemas } from '../../schemas/api-keys.js';
import type { authSchemas } from '../../schemas/auth.js';
import type { billingSchemas } from '../../schemas/billing.js';
import type { billingInvoiceSchemas } from '../../schemas/billing-invoices.js';
import type { billingUsageSchemas } from '../../schemas/billing-usage.js';
import type { commonSchemas } from '../../schemas/common.js';
import type { companySchemas } from '../../schemas/companies.js';
import type { creditNoteSchemas } from '../../schemas/credit-notes.js';
import type { fecSchemas } from '../../schemas/fec.js';
import type { fiscalSchemas } from '../../schemas/fiscal.js';
import type { fiscalAnchorSchemas } from '../../schemas/fiscal-anchors.js';
import type { fiscalAttestationSchemas } from '../../schemas/fiscal-attestations.js';
import type { fiscalClosingSchemas } from '../../schemas/fiscal-closings.js';
import type { fiscalComplianceSchemas } from '../../schemas/fiscal-compliance.js';
import type { fiscalRuleSchemas } from '../../schemas/fiscal-rules.js';
import type { inboundEventSchemas } from '../../schemas/inbound-events.js';
import type { incomingInvoiceSchemas } from '../../schemas/incoming-invoices.js';
import type { invoiceReadingSchemas } from '../../schemas/invoice-reading.js';
import type { invoiceSchemas } from '../../schemas/invoices.js';
import type { kybSchemas } from '../../schemas/kyb.js';
import type { maintenanceSchemas } from '../../schemas/maintenance.js';
import type { mcpSchemas } from '../../schemas/mcp.js';
import type { onboardingSchemas } from '../../schemas/onboarding.js';
import type { platformSchemas } from '../../schemas/platform.js';
import type { quoteSchemas } from '../../schemas/quotes.js';
import type { signatureProviderAdminSchemas } from '../../schemas/signature-provider-admin.js';
import type { signatureProviderJobSchemas } from '../../schemas/signature-provider-jobs.js';
import type { signatureSchemas } from '../../schemas/signatures.js';
import type { signingPageSchemas } from '../../schemas/signing-page.js';
import type { subTenantSchemas } from '../../schemas/sub-tenants.js';
import type { tenantAuthSchemas } from '../../schemas/tenant-auth.js';
import type { tenantProfileSchemas } from '../../schemas/tenant-profile.js';
import type { tenantSchemas } from '../../schemas/tenants.js';
import type { topUpSchemas } from '../../schemas/top-ups.js';
import type { transmissionSchemas } from '../../schemas/transmission.js';
import type { transmissionJobSchemas } from '../../schemas/transmission-jobs.js';
import type { userSchemas } from '../../schemas/users.js';
import type { webhookDeliverySchemas } from '../../schemas/webhook-deliveries.js';
import type { webhookLogSchemas } from '../../schemas/webhook-logs.js';
import type { webhookSchemas } from '../../schemas/webhooks.js';

/**
 * Compile-time helpers: the TypeScript type of any registered schema, by `$id`, and assertions
 * that fail the build (`npm run build` compiles test/) when a hand-kept type drifts from it.
 */

/** Every registered schema, as its literal (`as const`) type: the lists schemas/index.ts registers. */
export type AnySchema =
  | (typeof commonSchemas)[number]
  | (typeof platformSchemas)[number]
  | (typeof tenantSchemas)[number]
  | (typeof userSchemas)[number]
  | (typeof billingSchemas)[number]
  | (typeof billingInvoiceSchemas)[number]
  | (typeof billingUsageSchemas)[number]
  | (typeof topUpSchemas)[number]
  | (typeof webhookSchemas)[number]
  | (typeof webhookDeliverySchemas)[number]
  | (typeof webhookLogSchemas)[number]
  | (typeof inboundEventSchemas)[number]
  | (typeof companySchemas)[number]
  | (typeof maintenanceSchemas)[number]
  | (typeof onboardingSchemas)[number]
  | (typeof mcpSchemas)[number]
  | (typeof subTenantSchemas)[number]
  | (typeof signatureSchemas)[number]
  | (typeof signatureProviderJobSchemas)[number]
  | (typeof signatureProviderAdminSchemas)[number]
  | (typeof adminSchemas)[number]
  | (typeof signingPageSchemas)[number]
  | (typeof apiKeySchemas)[number]
  | (typeof tenantAuthSchemas)[number]
  | (typeof kybSchemas)[number]
  | (typeof tenantProfileSchemas)[number]
  | (typeof authSchemas)[number]
  | (typeof invoiceSchemas)[number]
  | (typeof fiscalSchemas)[number]
  | (typeof fiscalRuleSchemas)[number]
  | (typeof fecSchemas)[number]
  | (typeof fiscalClosingSchemas)[number]
  | (typeof fiscalAnchorSchemas)[number]
  | (typeof fiscalComplianceSchemas)[number]
  | (typeof fiscalAttestationSchemas)[number]
  | (typeof invoiceReadingSchemas)[number]
  | (typeof incomingInvoiceSchemas)[number]
  | (typeof creditNoteSchemas)[number]
  | (typeof quoteSchemas)[number]
  | (typeof transmissionSchemas)[number]
  | (typeof transmissionJobSchemas)[number];

export type SchemaId = AnySchema['$id'];

/** The type FromSchema derives from the schema `$id`, every registry `$ref` resolved. */
export type SchemaType<Id extends SchemaId> = FromSchema<Extract<AnySchema, { $id: Id }>, { references: AnySchema[] }>;

/** true when A and B are the same type (no `any` slipping through either way). */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** true when each of A and B is assignable to the other. */
export type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** true when A is assignable to B (what a view returns fits the schema it is documented by). */
export type Fits<A, B> = [A] extends [B] ? true : false;
/** Compiles only when given `true`. */
export type Assert<T extends true> = T;

/** Why FromSchema's type of the schema says nothing (any, unknown or never), else never. */
type Degenerate<T> = 0 extends 1 & T ? 'any' : unknown extends T ? 'unknown' : [T] extends [never] ? 'never' : never;
type Readable = {
  [Id in SchemaId]: [Degenerate<SchemaType<Id>>] extends [never]
    ? true
    : `${Id}: FromSchema gives ${Degenerate<SchemaType<Id>>}`;
};
type EveryValueTrue<T extends Record<string, true>> = T;

/**
 * Fails to compile, naming the schema, when FromSchema cannot read one (a `required` typed
 * `string[]`, a property built at run time): its type would then check nothing.
 */
export type EverySchemaReadable = EveryValueTrue<Readable>;
