import type { FiscalRuleInput } from '../../../schemas/fiscal-rules.js';
import { AppError } from '../../shared/app-error.js';
import { defineQuery } from '../../shared/operation.js';
import { loadRuleVersions } from '../fiscal-rule-store.js';
import { type FiscalRuleView, ruleOwnerOf, toRuleView, unknownRule } from '../fiscal-rule-view.js';
import { parisDate, ruleInForce } from '../fiscal-rules.js';

export const getFiscalRule = defineQuery<FiscalRuleInput, FiscalRuleView>({
  name: 'get_fiscal_rule',
  summary: 'The version of one fiscal rule in force today (or on `date`).',
  input: 'FiscalRuleInput',
  output: 'FiscalRule',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const owner = ruleOwnerOf(ctx.caller);
    const versions = await loadRuleVersions(ctx.tx, owner, input.rule);
    if (versions.length === 0) throw unknownRule(input.rule);
    const date = input.date ?? parisDate(ctx.clock.now());
    const inForce = ruleInForce(versions, input.rule, date);
    if (!inForce) {
      throw new AppError(
        'NOT_FOUND',
        `No version of ${input.rule} is in force on ${date}: the first applies from ${versions[0].effectiveFrom}. See its history.`,
      );
    }
    return toRuleView(inForce, true);
  },
});
