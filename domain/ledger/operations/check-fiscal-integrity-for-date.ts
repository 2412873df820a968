import type { FiscalIntegrityDateInput } from '../../../schemas/fiscal.js';
import { trustedCaPems } from '../../anchoring/index.js';
import { defineCommand } from '../../shared/operation.js';
import { fiscalScopeOf } from '../fiscal-scope.js';
import { checkIntegrity, type IntegrityReport } from '../integrity-check.js';

export const checkFiscalIntegrityForDate = defineCommand<FiscalIntegrityDateInput, IntegrityReport>({
  name: 'check_fiscal_integrity_for_date',
  summary:
    "Verify the fiscal chains and report on one UTC day's entries: the chains are walked from their first entry (a day's links depend on all before), breaks and counts are those of that day. The check is recorded.",
  input: 'FiscalIntegrityDateInput',
  output: 'FiscalIntegrityReport',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const scope = await fiscalScopeOf(ctx.tx, ctx.caller, input.sub_tenant_id, {
      from: input.date,
      to: input.date,
    });
    return checkIntegrity(ctx.tx, scope, ctx.clock.now(), await trustedCaPems(ctx.tx, ctx.deps.config));
  },
});
