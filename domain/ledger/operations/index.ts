/** The operations of the ledger context: what routes, job handlers and the CLI call through execute(). */

export { checkFiscalIntegrity } from './check-fiscal-integrity.js';
export { checkFiscalIntegrityForDate } from './check-fiscal-integrity-for-date.js';
export { closeFiscalChain } from './close-fiscal-chain.js';
export { createFiscalRule } from './create-fiscal-rule.js';
export { exportFec } from './export-fec.js';
export { exportFiscalRules } from './export-fiscal-rules.js';
export { getFiscalRule } from './get-fiscal-rule.js';
export { getKillSwitchStatus } from './get-kill-switch-status.js';
export { listFiscalClosings } from './list-fiscal-closings.js';
export { listFiscalEntries } from './list-fiscal-entries.js';
export { listFiscalIntegrityChecks } from './list-fiscal-integrity-checks.js';
export { listFiscalRuleHistory } from './list-fiscal-rule-history.js';
export { listFiscalRules } from './list-fiscal-rules.js';
export { performDailyClosing } from './perform-daily-closing.js';
export { replayFiscalRules } from './replay-fiscal-rules.js';
export { scheduleFiscalClosings } from './schedule-fiscal-closings.js';
export { activateKillSwitch, deactivateKillSwitch } from './set-kill-switch.js';
export { updateFiscalRule } from './update-fiscal-rule.js';
