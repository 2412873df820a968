import type { FiscalIntegrityInput } from '../../../schemas/fiscal.js';
import { trustedCaPems } from '../../anchoring/index.js';
import { defineCommand } from '../../shared/operation.js';
import { fiscalScopeOf } from '../fiscal-scope.js';
import { checkIntegrity, type IntegrityReport } from '../integrity-check.js';

export const checkFiscalIntegrity = defineCommand<FiscalIntegrityInput, IntegrityReport>({
  name: 'check_fiscal_integrity',
  summary:
    'Verify the fiscal chains now: every hash recomputed from the stored bytes, every link and sequence number checked, then the closings (seals, links, hashes) and their RFC 3161 anchors. Reports each break at its sequence number; the check itself is recorded.',
  input: 'FiscalIntegrityInput',
  output: 'FiscalIntegrityReport',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const scope = await fiscalScopeOf(ctx.tx, ctx.caller, input.sub_tenant_id);
    return checkIntegrity(ctx.tx, scope, ctx.clock.now(), await trustedCaPems(ctx.tx, ctx.deps.config));
  },
});
