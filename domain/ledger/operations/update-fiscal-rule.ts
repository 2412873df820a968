import type { UpdateFiscalRuleInput } from '../../../schemas/fiscal-rules.js';
import { actorOf } from '../../audit/index.js';
import { isUuid } from '../../shared/ids.js';
import { defineCommand } from '../../shared/operation.js';
import { findRuleVersion, insertRuleVersion, loadRuleVersions, lockRuleKey } from '../fiscal-rule-store.js';
import { type FiscalRuleView, ruleOwnerOf, toRuleViews, unknownRule } from '../fiscal-rule-view.js';
import { checkRuleValue, parisDate } from '../fiscal-rules.js';

export const updateFiscalRule = defineCommand<UpdateFiscalRuleInput, FiscalRuleView>({
  name: 'update_fiscal_rule',
  summary:
    'Record a new version of a fiscal rule (named by the id of any of its versions, or its key), applying from `effective_from`. Earlier versions stay as they were and keep applying to earlier dates.',
  input: 'UpdateFiscalRuleInput',
  output: 'FiscalRule',
  callers: ['tenant'],
  scope: 'fiscal:write',
  async run(input, ctx) {
    const owner = ruleOwnerOf(ctx.caller, { write: true });
    const named = isUuid(input.rule) ? await findRuleVersion(ctx.tx, owner, input.rule) : undefined;
    const key = named?.key ?? input.rule;
    if (!named && isUuid(input.rule)) throw unknownRule(input.rule);
    checkRuleValue(ctx.deps.schemas, key, input.value);
    await lockRuleKey(ctx.tx, owner, key);
    const versions = await loadRuleVersions(ctx.tx, owner, key);
    if (versions.length === 0) throw unknownRule(input.rule);
    const latest = versions[versions.length - 1];
    const now = ctx.clock.now();
    const created = await insertRuleVersion(ctx.tx, owner, {
      key,
      version: latest.version + 1,
      value: input.value,
      description: input.description?.trim() ?? (named ?? latest).description,
      effectiveFrom: input.effective_from,
      createdBy: actorOf(ctx.caller),
      now,
    });
    return toRuleViews([...versions, created], parisDate(now)).at(-1)!;
  },
});
