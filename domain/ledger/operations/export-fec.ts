import type { FecExportInput } from '../../../schemas/fec.js';
import { AppError } from '../../shared/app-error.js';
import type { FileOutput } from '../../shared/file-output.js';
import { defineQuery } from '../../shared/operation.js';
import { fecFileName, fecPeriod, renderFec } from '../fec-format.js';
import { postingsFor } from '../fec-postings.js';
import { loadAccountingFacts } from '../fec-source.js';
import { loadRuleVersions } from '../fiscal-rule-store.js';
import { ruleBook } from '../fiscal-rules.js';
import { fiscalScopeIn } from '../fiscal-scope.js';

export const exportFec = defineQuery<FecExportInput, FileOutput>({
  name: 'export_fec',
  summary:
    'The FEC (fichier des écritures comptables, article A47 A-1 LPF) of a year or a month, built from one fiscal chain: sales (VT), purchases (AC) and payments (BQ) with the accounts of the fiscal rules in force on each entry’s date. Named <SIREN>FEC<YYYYMMDD>.txt.',
  input: 'FecExportInput',
  output: 'FecFile',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const scope = await fiscalScopeIn(ctx.tx, ctx.caller, input);
    const owner = scope.subTenantId
      ? await ctx.tx('sub_tenants').where({ id: scope.subTenantId, tenant_id: scope.tenantId }).first('siret', 'name')
      : await ctx.tx('tenants').where({ id: scope.tenantId }).first('siret', 'name');
    if (!owner?.siret) {
      throw new AppError(
        'FEC_NOT_EXPORTABLE',
        `The FEC is named after the SIREN, and ${scope.subTenantId ? 'this sub-tenant' : 'your account'} has no SIRET: set it first.`,
        { body: { entries: [] } },
      );
    }
    const period = fecPeriod(input.year, input.month);
    const { facts, problems } = await loadAccountingFacts(ctx.tx, {
      tenantId: scope.tenantId,
      environment: scope.environment,
      chain: scope.subTenantId,
      ...period,
    });
    if (problems.length > 0) {
      throw new AppError(
        'FEC_NOT_EXPORTABLE',
        `${problems.length} ledger ${problems.length === 1 ? 'entry' : 'entries'} of the period cannot be written to a FEC; the first: entry ${problems[0].sequence_number}, ${problems[0].reason}.`,
        { body: { entries: problems.slice(0, 100) } },
      );
    }
    const rulesOn = ruleBook(await loadRuleVersions(ctx.tx, scope));
    const ecritures = facts
      .map((fact) => postingsFor(fact, rulesOn(fact.entry.fiscalDate)))
      .filter((e) => e.postings.length > 0);
    return {
      content: Buffer.from(renderFec(ecritures, input.format ?? 'tab'), 'utf8'),
      contentType: 'text/plain; charset=utf-8',
      filename: fecFileName(owner.siret, period.to),
    };
  },
});
