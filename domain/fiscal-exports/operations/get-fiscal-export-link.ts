import type { DownloadLink } from '../../../schemas/invoice-reading.js';
import type { FiscalExportLinkInput } from '../../../schemas/mcp.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { signFiscalExportLink } from '../fiscal-export-links.js';

/**
 * A 15-minute link to the FEC or the forensic archive, for callers that cannot take the file in the
 * answer (the MCP `export_fec` and `export_forensic` tools). The file is built when the link is used,
 * as the key that asked would get it from its HTTP route; what can be checked now is (the sub-tenant).
 */
export const getFiscalExportLink = defineQuery<FiscalExportLinkInput, DownloadLink>({
  name: 'get_fiscal_export_link',
  summary:
    'A link, valid 15 minutes without credentials, to the FEC of a period or to the forensic archive; the file is built when the link is used, and the link stops working if the key that asked is revoked.',
  input: 'FiscalExportLinkInput',
  output: 'DownloadLink',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const { caller } = ctx;
    if (!caller.tenantId || !caller.environment) throw new AppError('FORBIDDEN', 'A tenant key is needed.');
    if (input.export === 'fec' && input.year === undefined) throw AppError.validation({ year: ['is required'] });
    if (input.sub_tenant_id) {
      const found = await ctx
        .tx('sub_tenants')
        .where({ id: input.sub_tenant_id, tenant_id: caller.tenantId, environment: caller.environment })
        .first('id');
      if (!found || (caller.subTenantId && caller.subTenantId !== input.sub_tenant_id)) {
        throw new AppError('NOT_FOUND', 'No such sub-tenant.');
      }
    }
    const { export: kind, ...rest } = input;
    const params: Record<string, unknown> =
      kind === 'fec' ? rest : { ...(rest.sub_tenant_id ? { sub_tenant_id: rest.sub_tenant_id } : {}) };
    return signFiscalExportLink(ctx, {
      export: kind,
      tenant_id: caller.tenantId,
      environment: caller.environment,
      bound_sub_tenant_id: caller.subTenantId ?? null,
      params,
    });
  },
});
