import type { FiscalIntegrityInput } from '../../../schemas/fiscal.js';
import { defineCommand } from '../../shared/operation.js';
import { fiscalScopeOf } from '../fiscal-scope.js';
import { checkIntegrity, type IntegrityReport } from '../integrity-check.js';

export const checkFiscalIntegrity = defineCommand<FiscalIntegrityInput, IntegrityReport>({
  name: 'check_fiscal_integrity',
  summary:
    'Verify the fiscal chains now: every hash recomputed from the stored bytes, every link and sequence number checked. Reports each break at its sequence number; the check itself is recorded.',
  input: 'FiscalIntegrityInput',
  output: 'FiscalIntegrityReport',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    return checkIntegrity(ctx.tx, await fiscalScopeOf(ctx.tx, ctx.caller, input.sub_tenant_id), ctx.clock.now());
  },
});
