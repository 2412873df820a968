import type { ReplayFiscalRulesInput } from '../../../schemas/fec.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { loadAccountingFacts } from '../fec-source.js';
import { type ReplayReport, replayFacts } from '../fiscal-replay.js';
import { loadRuleVersions } from '../fiscal-rule-store.js';
import { ruleBook } from '../fiscal-rules.js';
import { fiscalScopeOf } from '../fiscal-scope.js';

/**
 * A command because it is a POST (its Idempotency-Key record is written in its transaction), but it
 * writes nothing of its own: the entries are read, never changed, so every hash stays as it was.
 */
export const replayFiscalRules = defineCommand<ReplayFiscalRulesInput, ReplayReport>({
  name: 'replay_fiscal_rules',
  summary:
    'Recompute the derived figures of existing ledger entries under the rules in force on each entry’s date (FEC postings, VAT under vat.rounding, the invoice row against its entry) and report the differences. The chain is only read: no hash changes.',
  input: 'ReplayFiscalRulesInput',
  output: 'FiscalRulesReplay',
  callers: ['tenant'],
  scope: 'fiscal:write',
  async run(input, ctx) {
    if (input.date_from && input.date_to && input.date_from > input.date_to) {
      throw AppError.validation({ date_to: ['must be on or after date_from'] });
    }
    const scope = await fiscalScopeOf(ctx.tx, ctx.caller, input.sub_tenant_id);
    const loaded = await loadAccountingFacts(ctx.tx, {
      tenantId: scope.tenantId,
      environment: scope.environment,
      chain: scope.subTenantId ?? 'all',
      from: input.date_from,
      to: input.date_to,
    });
    const rulesOn = ruleBook(await loadRuleVersions(ctx.tx, scope));
    return replayFacts(loaded, rulesOn, { details: input.details ?? false, now: ctx.clock.now() });
  },
});
