import type { FiscalIntegrityInput } from '../../../schemas/fiscal.js';
import { trustedCaPems } from '../../anchoring/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { fiscalScopeOf } from '../fiscal-scope.js';
import { checkIntegrity, type IntegrityReport, type IntegrityScope } from '../integrity-check.js';

/** `date_from`..`date_to` (either end open), or the whole chain when neither is given. */
function periodOf(input: FiscalIntegrityInput): IntegrityScope['period'] {
  if (!input.date_from && !input.date_to) return null;
  const period = { from: input.date_from ?? '0001-01-01', to: input.date_to ?? '9999-12-31' };
  if (period.from > period.to) throw AppError.validation({ date_to: ['must be on or after date_from'] });
  return period;
}

export const checkFiscalIntegrity = defineCommand<FiscalIntegrityInput, IntegrityReport>({
  name: 'check_fiscal_integrity',
  summary:
    'Verify the fiscal chains now: every hash recomputed from the stored bytes, every link and sequence number checked, then the closings (seals, links, hashes) and their RFC 3161 anchors. Reports each break at its sequence number; with `date_from`/`date_to`, only the breaks, entries and closings of those days. The check itself is recorded.',
  input: 'FiscalIntegrityInput',
  output: 'FiscalIntegrityReport',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const scope = await fiscalScopeOf(ctx.tx, ctx.caller, input.sub_tenant_id, periodOf(input));
    return checkIntegrity(ctx.tx, scope, ctx.clock.now(), await trustedCaPems(ctx.tx, ctx.deps.config));
  },
});
