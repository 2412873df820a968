import type { FiscalExportFileInput } from '../../../schemas/mcp.js';
import { assertLinkCredentialActive } from '../../auth/index.js';
import { exportFec } from '../../ledger/operations/index.js';
import { ANY_CALLER, type Caller } from '../../shared/caller.js';
import { execute } from '../../shared/execute.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { inTenantContext } from '../../shared/tenant-context.js';
import { openFiscalExportLink } from '../fiscal-export-links.js';
import { exportForensic } from './export-forensic.js';

/**
 * The file behind a fiscal export link: the credential that asked must still be good, then the
 * export runs as that tenant's key would run it (same environment, same sub-tenant binding, scope
 * `fiscal:read`), through its own operation.
 */
export const downloadFiscalExport = defineQuery<FiscalExportFileInput, FileOutput>({
  name: 'download_fiscal_export',
  summary:
    'The FEC or forensic archive behind a download link, served without credentials while the link is valid (15 minutes): 410 DOWNLOAD_LINK_EXPIRED after, 403 DOWNLOAD_LINK_INVALID for an altered link or once the credential that asked for it is revoked.',
  input: 'FiscalExportFileInput',
  output: 'FiscalExportFile',
  callers: ANY_CALLER,
  // The export opens its own transaction (a snapshot for the archive); none is held around it.
  transactional: false,
  async run(input, ctx) {
    const claims = openFiscalExportLink(ctx, input.token);
    const owner = { tenantId: claims.tenant_id, environment: claims.environment, kind: 'tenant' as const };
    await inTenantContext(ctx.deps.db, owner, (tx) => assertLinkCredentialActive(tx, claims, ctx.clock.now()));
    const caller: Caller = {
      ...owner,
      scopes: ['fiscal:read'],
      subTenantId: claims.bound_sub_tenant_id,
      credential: claims.cred ? { type: claims.cred.type, id: claims.cred.id } : null,
      requestId: ctx.caller.requestId ?? null,
      ip: ctx.caller.ip ?? null,
    };
    return claims.export === 'fec'
      ? execute(exportFec, claims.params, caller, ctx.deps)
      : execute(exportForensic, claims.params, caller, ctx.deps);
  },
});
