import {
  getBillingUsage,
  listBillingInvoices,
  listBillingTransactions,
} from '../../../domain/billing/operations/index.js';
import {
  acceptIncomingInvoice,
  getIncomingInvoice,
  listIncomingInvoices,
  markIncomingInvoicePaid,
  rejectIncomingInvoice,
} from '../../../domain/incoming/operations/index.js';
import {
  createSubTenant,
  deleteSubTenant,
  findSubTenantByExternalId,
  getSubTenant,
  listSubTenants,
  updateSubTenant,
} from '../../../domain/sub-tenants/operations/index.js';
import { getTenantProfile, getTenantStats, updateTenantProfile } from '../../../domain/tenants/operations/index.js';
import type { JsonSchema } from '../../../schemas/registry.js';
import { CREATE, DESTROY, idArgument, PAGING, READ, renameId, type ToolSpec, UPDATE } from '../tool.js';

const subTenantId = () => idArgument('sub_tenant_id', 'The sub-tenant id (UUID).');
const incomingId = (extra: Record<string, JsonSchema> = {}) =>
  idArgument('invoice_id', 'The incoming (supplier) invoice id (UUID).', extra);

/** The tenant-only tools: profile, billing, statistics, sub-tenants and incoming invoices. */
export const tenantTools: readonly ToolSpec[] = [
  {
    name: 'get_tenant_profile',
    group: 'tenant',
    title: 'Tenant profile',
    description: 'The tenant’s profile: names, contact e-mails, webhook URL, KYB status.',
    input: 'EmptyInput',
    annotations: READ,
    operation: getTenantProfile,
  },
  {
    name: 'update_tenant_profile',
    group: 'tenant',
    title: 'Update the tenant profile',
    description:
      'Changes the tenant’s name, billing or technical e-mail, or webhook URL (null removes it). Needs profile:write.',
    input: 'UpdateTenantProfileInput',
    annotations: UPDATE,
    operation: updateTenantProfile,
  },
  {
    name: 'get_tenant_stats',
    group: 'tenant',
    title: 'Tenant statistics',
    description:
      'Counts for the tenant: sub-tenants, companies, invoices, credit notes, keys, the balance and this month’s movements.',
    input: 'EmptyInput',
    annotations: READ,
    operation: getTenantStats,
  },
  {
    name: 'list_billing_invoices',
    group: 'billing',
    title: 'Monthly billing invoices',
    description:
      'The monthly invoices the service issued to the tenant (usage of the month), 15 per page by default, by year.',
    input: { base: 'BillingInvoiceListInput', paging: true },
    annotations: READ,
    operation: listBillingInvoices,
  },
  {
    name: 'get_billing_usage',
    group: 'billing',
    title: 'Billable usage',
    description:
      'Billable usage per month (invoices, signatures, credit notes and their prices), one month or the last months.',
    input: 'BillingUsageInput',
    annotations: READ,
    operation: getBillingUsage,
  },
  {
    name: 'list_billing_transactions',
    group: 'billing',
    title: 'Balance transactions',
    description: 'Debits and credits of the prepaid balance, newest first, 15 per page by default, by type and dates.',
    input: { base: 'BillingTransactionListInput', paging: true },
    annotations: READ,
    operation: listBillingTransactions,
  },
  {
    name: 'get_stats_overview',
    group: 'statistics',
    title: 'Statistics overview',
    description:
      'An overview of the tenant’s activity: documents, sub-tenants, keys, balance and this month’s movements (as get_tenant_stats).',
    input: 'EmptyInput',
    annotations: READ,
    operation: getTenantStats,
  },
  {
    name: 'get_stats_monthly',
    group: 'statistics',
    title: 'Monthly statistics',
    description: 'Documents issued and their billable amounts in one month (the current one by default).',
    input: {
      type: 'object',
      additionalProperties: false,
      properties: {
        year: { type: 'integer', minimum: 2000, maximum: 2100, description: 'Year; the current one by default.' },
        month: { type: 'integer', minimum: 1, maximum: 12, description: 'Month 1-12; the current one by default.' },
      },
    },
    annotations: READ,
    operation: getBillingUsage,
    toInput: (args) => {
      if (args.year === undefined && args.month === undefined) return { months: 1 };
      const now = new Date();
      const year = (args.year as number | undefined) ?? now.getUTCFullYear();
      const month = (args.month as number | undefined) ?? now.getUTCMonth() + 1;
      return { month: `${year}-${String(month).padStart(2, '0')}` };
    },
  },
  {
    name: 'list_sub_tenants',
    group: 'sub_tenants',
    title: 'List sub-tenants',
    description:
      'Lists the tenant’s sub-tenants (its clients, subsidiaries or departments), 15 per page by default, by status or a search text.',
    input: { base: 'ListSubTenantsInput', paging: true },
    annotations: READ,
    operation: listSubTenants,
  },
  {
    name: 'create_sub_tenant',
    group: 'sub_tenants',
    title: 'Create a sub-tenant',
    description:
      'Creates a sub-tenant with your own `external_id` (unique) and a name; invoices can then be issued for it. Needs sub_tenants:write.',
    input: 'CreateSubTenantInput',
    annotations: CREATE,
    operation: createSubTenant,
  },
  {
    name: 'get_sub_tenant',
    group: 'sub_tenants',
    title: 'Read a sub-tenant',
    description: 'Reads one sub-tenant.',
    input: subTenantId(),
    annotations: READ,
    operation: getSubTenant,
    toInput: renameId('sub_tenant_id'),
  },
  {
    name: 'update_sub_tenant',
    group: 'sub_tenants',
    title: 'Update a sub-tenant',
    description:
      'Changes a sub-tenant’s fields (name, e-mail, SIRET, VAT number, address, metadata). Needs sub_tenants:write.',
    input: { base: 'UpdateSubTenantInput', rename: { id: 'sub_tenant_id' } },
    annotations: UPDATE,
    operation: updateSubTenant,
    toInput: renameId('sub_tenant_id'),
  },
  {
    name: 'delete_sub_tenant',
    group: 'sub_tenants',
    title: 'Delete a sub-tenant',
    description:
      'Deletes a sub-tenant. DESTRUCTIVE; refused while it has companies (SUB_TENANT_HAS_COMPANIES) or fiscal entries (SUB_TENANT_HAS_FISCAL_ENTRIES). Needs sub_tenants:write.',
    input: subTenantId(),
    annotations: DESTROY,
    operation: deleteSubTenant,
    toInput: renameId('sub_tenant_id'),
  },
  {
    name: 'find_sub_tenant_by_external_id',
    group: 'sub_tenants',
    title: 'Find a sub-tenant by your id',
    description: 'Finds a sub-tenant by the `external_id` you gave it.',
    input: {
      type: 'object',
      additionalProperties: false,
      required: ['external_id'],
      properties: {
        external_id: { type: 'string', minLength: 1, maxLength: 255, description: 'Your id of the sub-tenant.' },
      },
    },
    annotations: READ,
    operation: findSubTenantByExternalId,
    toInput: (args) => ({ externalId: args.external_id }),
  },
  {
    name: 'list_incoming_invoices',
    group: 'incoming',
    title: 'List supplier invoices',
    description: 'Lists invoices received from suppliers, newest first, 15 per page by default, by status and dates.',
    input: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: {
          type: 'string',
          enum: ['received', 'accepted', 'rejected', 'disputed', 'paid'],
          description: 'Only in this status.',
        },
        date_from: { type: 'string', format: 'date', description: 'Received on or after this date.' },
        date_to: { type: 'string', format: 'date', description: 'Received on or before this date.' },
        ...PAGING,
      },
    },
    annotations: READ,
    operation: listIncomingInvoices,
    toInput: ({ date_from, date_to, ...rest }) => ({
      ...rest,
      ...(date_from ? { from: date_from } : {}),
      ...(date_to ? { to: date_to } : {}),
    }),
  },
  {
    name: 'get_incoming_invoice',
    group: 'incoming',
    title: 'Read a supplier invoice',
    description: 'Reads one supplier invoice with its parsed content.',
    input: incomingId(),
    annotations: READ,
    operation: getIncomingInvoice,
    toInput: renameId('invoice_id'),
  },
  {
    name: 'accept_incoming_invoice',
    group: 'incoming',
    title: 'Accept a supplier invoice',
    description: 'Accepts a received supplier invoice; the status goes back to the supplier.',
    input: incomingId(),
    annotations: UPDATE,
    operation: acceptIncomingInvoice,
    toInput: renameId('invoice_id'),
  },
  {
    name: 'reject_incoming_invoice',
    group: 'incoming',
    title: 'Reject a supplier invoice',
    description: 'Rejects a received supplier invoice with a reason; the status goes back to the supplier. Final.',
    input: incomingId({
      reason: {
        type: 'string',
        minLength: 1,
        maxLength: 900,
        description: 'Why it is rejected (sent to the supplier).',
      },
    }),
    annotations: DESTROY,
    operation: rejectIncomingInvoice,
    toInput: renameId('invoice_id'),
  },
  {
    name: 'mark_incoming_invoice_paid',
    group: 'incoming',
    title: 'Mark a supplier invoice paid',
    description: 'Records that a supplier invoice was paid, with your payment reference.',
    input: incomingId({
      payment_reference: { type: 'string', minLength: 1, maxLength: 140, description: 'Your payment reference.' },
    }),
    annotations: UPDATE,
    operation: markIncomingInvoicePaid,
    toInput: renameId('invoice_id'),
  },
];
