import type { FiscalComplianceInput } from '../../../schemas/fiscal-compliance.js';
import { defineCommand } from '../../shared/operation.js';
import { type ComplianceReport, complianceReport } from '../compliance.js';
import { reportScope } from '../report-scope.js';

/** A command although it answers a GET: when no recent check exists it runs one, which is recorded. */
export const getFiscalCompliance = defineCommand<FiscalComplianceInput, ComplianceReport>({
  name: 'get_fiscal_compliance',
  summary:
    'Whether the fiscal chains are in order now: integrity verified (a check of the last 24 hours, or one run now; `verify=true` forces one), every past day, month and year closed, closings time-stamped (RFC 3161) without long-pending or failed anchors, kill switch off. Each problem is a machine-readable warning.',
  input: 'FiscalComplianceInput',
  output: 'FiscalCompliance',
  callers: ['tenant'],
  scope: 'fiscal:read',
  async run(input, ctx) {
    const scope = await reportScope(ctx, input);
    return complianceReport(ctx, scope, input.verify ?? false);
  },
});
