import type { FecAccountsRuleValue, FecJournalsRuleValue, VatRoundingRuleValue } from '../../schemas/fiscal-rules.js';
import type { SchemaRegistry } from '../../schemas/registry.js';
import { AppError, isAppError } from '../shared/app-error.js';

/** One version of a rule: a tenant's (fiscal_rules) or the built-in one (fiscal_rule_defaults). */
export interface RuleVersion {
  id: string;
  key: string;
  version: number;
  value: unknown;
  description: string;
  /** YYYY-MM-DD. */
  effectiveFrom: string;
  source: 'default' | 'tenant';
  createdAt: Date;
  createdBy: Record<string, string | null> | null;
}

/** The rules the service itself reads, with the schema their value must follow. */
export const KNOWN_RULES = {
  'fec.journals': 'FecJournalsRuleValue',
  'fec.accounts': 'FecAccountsRuleValue',
  'vat.rounding': 'VatRoundingRuleValue',
} as const;
export type KnownRuleKey = keyof typeof KNOWN_RULES;

/** Namespaces of the service's rules: a key there must be a known one, so a typo cannot silently do nothing. */
const RESERVED_NAMESPACES = new Set(['fec', 'vat']);

/** A stored value stays small: rules are settings, not documents. */
const MAX_VALUE_LENGTH = 10_000;

const isKnown = (key: string): key is KnownRuleKey => Object.hasOwn(KNOWN_RULES, key);

/**
 * The version in force on `date`: the latest `effective_from` on or before it, the highest
 * version on a tie (a correction recorded later wins over the version it corrects).
 */
export function ruleInForce(versions: readonly RuleVersion[], key: string, date: string): RuleVersion | undefined {
  let best: RuleVersion | undefined;
  for (const v of versions) {
    if (v.key !== key || v.effectiveFrom > date) continue;
    if (
      !best ||
      v.effectiveFrom > best.effectiveFrom ||
      (v.effectiveFrom === best.effectiveFrom && v.version > best.version)
    ) {
      best = v;
    }
  }
  return best;
}

/** The keys' versions in force on `date`, one per key that has one, by key. */
export function rulesInForce(versions: readonly RuleVersion[], date: string): RuleVersion[] {
  const keys = [...new Set(versions.map((v) => v.key))].sort();
  return keys.map((key) => ruleInForce(versions, key, date)).filter((v): v is RuleVersion => v !== undefined);
}

/** What the FEC and the replay read, as in force on one day, with the versions they came from. */
export interface AppliedRules {
  journals: FecJournalsRuleValue;
  accounts: FecAccountsRuleValue;
  vatRounding: VatRoundingRuleValue;
  versions: RuleVersion[];
}

/** Resolves the known rules for each day asked, once per day. */
export function ruleBook(versions: readonly RuleVersion[]): (date: string) => AppliedRules {
  const cache = new Map<string, AppliedRules>();
  return (date) => {
    let rules = cache.get(date);
    if (!rules) {
      const pick = (key: KnownRuleKey) => {
        const version = ruleInForce(versions, key, date);
        // The built-in version 1 applies from 1900-01-01 and can never be removed (append-only tables).
        if (!version) throw new Error(`no version of fiscal rule ${key} is in force on ${date}`);
        return version;
      };
      const used = (Object.keys(KNOWN_RULES) as KnownRuleKey[]).map(pick);
      rules = {
        journals: used[0].value as FecJournalsRuleValue,
        accounts: used[1].value as FecAccountsRuleValue,
        vatRounding: used[2].value as VatRoundingRuleValue,
        versions: used,
      };
      cache.set(date, rules);
    }
    return rules;
  };
}

/** Checks a value for its key: known keys follow their schema, reserved namespaces take no unknown key. */
export function checkRuleValue(schemas: SchemaRegistry, key: string, value: unknown): void {
  if (!isKnown(key) && RESERVED_NAMESPACES.has(key.split('.')[0])) {
    throw AppError.validation({
      key: [`is not a rule of the service; its rules are ${Object.keys(KNOWN_RULES).join(', ')}`],
    });
  }
  if (JSON.stringify(value).length > MAX_VALUE_LENGTH) {
    throw AppError.validation({ value: [`must be at most ${MAX_VALUE_LENGTH} characters of JSON`] });
  }
  if (!isKnown(key)) return;
  try {
    schemas.parse(KNOWN_RULES[key], value);
  } catch (err) {
    if (!isAppError(err) || !err.extra.fields) throw err;
    const fields = Object.fromEntries(
      Object.entries(err.extra.fields).map(([path, messages]) => [
        path === '' || path === 'body' ? 'value' : `value.${path}`,
        messages,
      ]),
    );
    throw AppError.validation(fields);
  }
}

const PARIS_DATE = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The calendar day (YYYY-MM-DD) in France at `instant`: fiscal days are French days. */
export const parisDate = (instant: Date): string => PARIS_DATE.format(instant);
