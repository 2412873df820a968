import type { FiscalRule } from '../../schemas/fiscal-rules.js';
import { AppError } from '../shared/app-error.js';
import type { Caller } from '../shared/caller.js';
import type { RuleOwner } from './fiscal-rule-store.js';
import { type RuleVersion, ruleInForce } from './fiscal-rules.js';

/** The FiscalRule shape (schemas/fiscal-rules.ts). */
/** Schema `FiscalRule`: the type comes from the schema. */
export type FiscalRuleView = FiscalRule;

export const toRuleView = (v: RuleVersion, inForce: boolean): FiscalRuleView => ({
  id: v.id,
  key: v.key,
  version: v.version,
  value: v.value,
  description: v.description,
  effective_from: v.effectiveFrom,
  source: v.source,
  in_force: inForce,
  created_at: v.createdAt.toISOString(),
  created_by: v.createdBy,
});

/** Versions as views, each marked when it is the one of its key in force on `date`. */
export function toRuleViews(versions: readonly RuleVersion[], date: string): FiscalRuleView[] {
  const inForce = new Set(
    [...new Set(versions.map((v) => v.key))].map((key) => ruleInForce(versions, key, date)?.id).filter(Boolean),
  );
  return versions.map((v) => toRuleView(v, inForce.has(v.id)));
}

/**
 * Whose rules a caller reads or writes: its tenant's, in its key's environment. Rules are the
 * tenant's: a key bound to a sub-tenant reads them but may not change them.
 */
export function ruleOwnerOf(caller: Caller, options: { write?: boolean } = {}): RuleOwner {
  if (!caller.tenantId || !caller.environment) {
    throw new AppError('FORBIDDEN', 'Fiscal rules are read with a tenant secret key (sk_test_ or sk_live_).');
  }
  if (options.write && caller.subTenantId) {
    throw new AppError(
      'FORBIDDEN',
      "Fiscal rules are the tenant's: change them with the tenant's own key, not one bound to a sub-tenant.",
    );
  }
  return { tenantId: caller.tenantId, environment: caller.environment };
}

export const unknownRule = (ref: string): AppError =>
  new AppError('NOT_FOUND', `No fiscal rule ${JSON.stringify(ref)}. List the rules with GET /v1/tenant/fiscal/rules.`);
