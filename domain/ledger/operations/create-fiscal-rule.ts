import type { CreateFiscalRuleInput } from '../../../schemas/fiscal-rules.js';
import { actorOf } from '../../audit/index.js';
import { AppError } from '../../shared/app-error.js';
import { defineCommand } from '../../shared/operation.js';
import { insertRuleVersion, loadRuleVersions, lockRuleKey } from '../fiscal-rule-store.js';
import { type FiscalRuleView, ruleOwnerOf, toRuleViews } from '../fiscal-rule-view.js';
import { checkRuleValue, parisDate } from '../fiscal-rules.js';

export const createFiscalRule = defineCommand<CreateFiscalRuleInput, FiscalRuleView>({
  name: 'create_fiscal_rule',
  summary:
    'Record a new fiscal rule key with its first version, applying from `effective_from`. A key that exists (yours or built-in) answers 409 with its id: change it with PUT /v1/tenant/fiscal/rules/{id}.',
  input: 'CreateFiscalRuleInput',
  output: 'FiscalRule',
  callers: ['tenant'],
  scope: 'fiscal:write',
  async run(input, ctx) {
    const owner = ruleOwnerOf(ctx.caller, { write: true });
    checkRuleValue(ctx.deps.schemas, input.key, input.value);
    await lockRuleKey(ctx.tx, owner, input.key);
    const existing = await loadRuleVersions(ctx.tx, owner, input.key);
    if (existing.length > 0) {
      const latest = existing[existing.length - 1];
      throw new AppError(
        'CONFLICT',
        `The fiscal rule ${input.key} exists: record a new version with PUT /v1/tenant/fiscal/rules/${latest.id}.`,
        { body: { existing_id: latest.id } },
      );
    }
    const now = ctx.clock.now();
    const created = await insertRuleVersion(ctx.tx, owner, {
      key: input.key,
      version: 1,
      value: input.value,
      description: input.description.trim(),
      effectiveFrom: input.effective_from,
      createdBy: actorOf(ctx.caller),
      now,
    });
    return toRuleViews([created], parisDate(now))[0];
  },
});
