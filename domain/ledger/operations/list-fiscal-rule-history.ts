import type { FiscalRuleHistoryInput } from '../../../schemas/fiscal-rules.js';
import { defineQuery } from '../../shared/operation.js';
import { loadRuleVersions } from '../fiscal-rule-store.js';
import { type FiscalRuleView, ruleOwnerOf, toRuleViews, unknownRule } from '../fiscal-rule-view.js';
import { parisDate } from '../fiscal-rules.js';

export const listFiscalRuleHistory = defineQuery<FiscalRuleHistoryInput, FiscalRuleView[]>({
  name: 'list_fiscal_rule_history',
  summary:
    'Every version of one fiscal rule, oldest first, each kept as recorded; `in_force` marks the one that applies today.',
  input: 'FiscalRuleHistoryInput',
  output: 'FiscalRuleList',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const versions = await loadRuleVersions(ctx.tx, ruleOwnerOf(ctx.caller), input.rule);
    if (versions.length === 0) throw unknownRule(input.rule);
    return toRuleViews(versions, parisDate(ctx.clock.now()));
  },
});
