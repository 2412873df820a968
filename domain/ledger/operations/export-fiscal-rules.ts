import type { EmptyInput } from '../../../schemas/common.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { loadRuleVersions } from '../fiscal-rule-store.js';
import { ruleOwnerOf, toRuleViews } from '../fiscal-rule-view.js';
import { parisDate } from '../fiscal-rules.js';

export const exportFiscalRules = defineQuery<EmptyInput, FileOutput>({
  name: 'export_fiscal_rules',
  summary:
    'Download every version of every fiscal rule of the key’s environment (built-in and yours) as one JSON file, for an auditor or a backup.',
  input: 'EmptyInput',
  output: 'FiscalRulesExport',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(_input, ctx) {
    const owner = ruleOwnerOf(ctx.caller);
    const now = ctx.clock.now();
    const today = parisDate(now);
    const body = {
      exported_at: now.toISOString(),
      tenant_id: owner.tenantId,
      environment: owner.environment,
      rules: toRuleViews(await loadRuleVersions(ctx.tx, owner), today),
    };
    return {
      content: Buffer.from(`${JSON.stringify(body, null, 2)}\n`, 'utf8'),
      contentType: 'application/json; charset=utf-8',
      filename: `fiscal-rules-${owner.environment}-${today.replaceAll('-', '')}.json`,
    };
  },
});
