/**
 * Public surface of the ledger context for code outside it: what other contexts, api/ and workers/ use.
 * Its operations are exported from ./operations/index.ts.
 */

export {
  addDays,
  CLOSING_TYPES,
  type ClosingType,
  lastPeriodEndedBy,
  nextPeriod,
  periodContaining,
  periodEndsAt,
  utcDay,
} from './closing-periods.js';
export { CLOSING_HASH_VERSION, closingHashedFields } from './closing-record.js';
export {
  type ClosingRow,
  chainClosings,
  chainEntries,
  chainStartedAt,
  findClosing,
  lastClosing,
} from './closing-store.js';
export {
  appendFiscalEntries,
  appendFiscalEntry,
  canonicalJson,
  compareChains,
  type FiscalFact,
  fiscalPendingRows,
  GENESIS_HASH,
  HASH_VERSION,
  sha256Hex,
} from './fiscal-chain.js';
export { countSubTenantEntries, type FiscalChain, fiscalChainSummary, NO_SUB_TENANT } from './fiscal-chain-summary.js';
export type { CreditNoteIssuedData, PaymentData } from './fiscal-entry-data.js';
export { assertChainOpen, chainOpenChecker } from './fiscal-period.js';
export { RULE_KEY_PATTERN } from './fiscal-rule-key.js';
export { fiscalScopeIn, fiscalScopeOf } from './fiscal-scope.js';
export { checkIntegrity, type IntegrityScope } from './integrity-check.js';
export { assertKillSwitchOff, findKillSwitch } from './kill-switch.js';
