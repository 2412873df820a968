/** Public surface of the audit context for code outside it: what other contexts, api/ and workers/ use. */

export { actorOf } from './actor.js';
export {
  type AuditFact,
  appendAuditEntries,
  appendAuditEntry,
  appendFirstAuditEntries,
  auditTrailIntact,
  auditTrailView,
  firstAuditRows,
  readAuditTrail,
} from './audit-trail.js';
