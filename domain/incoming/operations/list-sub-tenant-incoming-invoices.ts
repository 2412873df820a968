import type { SubTenantIncomingInvoiceListInput } from '../../../schemas/incoming-invoices.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import type { Page } from '../../shared/pagination.js';
import { requireSubTenant } from '../../sub-tenants/index.js';
import { incomingReaderOf, viewsOf } from '../incoming-reader.js';
import { listIncoming } from '../incoming-store.js';
import type { IncomingInvoiceView } from '../incoming-view.js';

export const listSubTenantIncomingInvoices = defineQuery<SubTenantIncomingInvoiceListInput, Page<IncomingInvoiceView>>({
  name: 'list_sub_tenant_incoming_invoices',
  summary:
    "List one sub-tenant's incoming (supplier) invoices in the key's environment, newest first; filter by `status` and by issue date (`from`, `to`). A sub-tenant outside the tenant answers 404.",
  input: 'SubTenantIncomingInvoiceListInput',
  output: 'IncomingInvoicePage',
  callers: ['tenant'],
  scope: 'invoices',
  async run(input, ctx) {
    const { tenantId, environment } = ctx.caller;
    if (!tenantId || !environment) throw new AppError('FORBIDDEN', 'Listing needs a secret key.');
    await requireSubTenant(ctx.tx, { tenantId, environment, subTenantId: ctx.caller.subTenantId ?? null }, input.id);
    const { id, ...filters } = input;
    const page = await listIncoming(ctx.tx, incomingReaderOf(ctx.caller), { ...filters, subTenantId: id });
    return { ...page, data: await viewsOf(ctx.tx, page.data) };
  },
});
