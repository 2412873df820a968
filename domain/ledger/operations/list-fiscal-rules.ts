import type { FiscalRulesInput } from '../../../schemas/fiscal-rules.js';
import { defineQuery } from '../../shared/operation.js';
import { loadRuleVersions } from '../fiscal-rule-store.js';
import { type FiscalRuleView, ruleOwnerOf, toRuleView } from '../fiscal-rule-view.js';
import { parisDate, rulesInForce } from '../fiscal-rules.js';

export const listFiscalRules = defineQuery<FiscalRulesInput, FiscalRuleView[]>({
  name: 'list_fiscal_rules',
  summary:
    'The fiscal rules in force today (or on `date`), one version per key: the built-in ones (FEC journals and accounts, VAT rounding) until you record your own versions.',
  input: 'FiscalRulesInput',
  output: 'FiscalRuleList',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const owner = ruleOwnerOf(ctx.caller);
    const date = input.date ?? parisDate(ctx.clock.now());
    return rulesInForce(await loadRuleVersions(ctx.tx, owner), date).map((v) => toRuleView(v, true));
  },
});
