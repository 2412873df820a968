import type { Knex } from 'knex';
import type { Environment } from '../shared/caller.js';
import { isUuid } from '../shared/ids.js';
import type { RuleVersion } from './fiscal-rules.js';

/** Rules belong to a tenant in one environment (its sub-tenants follow them). */
export interface RuleOwner {
  tenantId: string;
  environment: Environment;
}

interface RuleRow {
  id: string;
  key: string;
  version: number;
  value: unknown;
  description: string;
  effective_from: string;
  created_at: Date;
  created_by?: Record<string, string | null> | null;
}

const COLUMNS = ['id', 'key', 'version', 'value', 'description', 'effective_from', 'created_at'] as const;

const toVersion =
  (source: RuleVersion['source']) =>
  (row: RuleRow): RuleVersion => ({
    id: row.id,
    key: row.key,
    version: row.version,
    value: row.value,
    description: row.description,
    effectiveFrom: row.effective_from,
    source,
    createdAt: row.created_at,
    createdBy: row.created_by ?? null,
  });

const byKeyThenVersion = (a: RuleVersion, b: RuleVersion) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : a.version - b.version;

/** Every version of the owner's rules (or of one key): the built-in ones and its own, by key then version. */
export async function loadRuleVersions(tx: Knex, owner: RuleOwner, key?: string): Promise<RuleVersion[]> {
  const defaults = await tx('fiscal_rule_defaults')
    .modify((q) => (key ? q.where({ key }) : q))
    .select<RuleRow[]>(COLUMNS);
  const own = await tx('fiscal_rules')
    .where({ tenant_id: owner.tenantId, environment: owner.environment })
    .modify((q) => (key ? q.andWhere({ key }) : q))
    .select<RuleRow[]>([...COLUMNS, 'created_by']);
  return [...defaults.map(toVersion('default')), ...own.map(toVersion('tenant'))].sort(byKeyThenVersion);
}

/** A version by id: the owner's own or a built-in one; another tenant's is not found. */
export async function findRuleVersion(tx: Knex, owner: RuleOwner, id: string): Promise<RuleVersion | undefined> {
  if (!isUuid(id)) return undefined;
  const own = await tx('fiscal_rules')
    .where({ tenant_id: owner.tenantId, environment: owner.environment, id })
    .first<RuleRow | undefined>([...COLUMNS, 'created_by']);
  if (own) return toVersion('tenant')(own);
  const builtIn = await tx('fiscal_rule_defaults').where({ id }).first<RuleRow | undefined>(COLUMNS);
  return builtIn ? toVersion('default')(builtIn) : undefined;
}

/**
 * Serialises the writers of one key of one owner until the transaction ends, so two changes at
 * once get versions n and n+1 instead of one failing on the unique version.
 */
export async function lockRuleKey(tx: Knex, owner: RuleOwner, key: string): Promise<void> {
  await tx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [
    `fiscal_rules:${owner.tenantId}:${owner.environment}:${key}`,
  ]);
}

export interface NewRuleVersion {
  key: string;
  version: number;
  value: unknown;
  description: string;
  effectiveFrom: string;
  createdBy: Record<string, string | null>;
  now: Date;
}

/** Appends a version; the database checks it is the next one of its key (fiscal_rules_check_version). */
export async function insertRuleVersion(tx: Knex, owner: RuleOwner, v: NewRuleVersion): Promise<RuleVersion> {
  const [row] = await tx('fiscal_rules')
    .insert({
      tenant_id: owner.tenantId,
      environment: owner.environment,
      key: v.key,
      version: v.version,
      value: JSON.stringify(v.value),
      description: v.description,
      effective_from: v.effectiveFrom,
      created_at: v.now,
      created_by: JSON.stringify(v.createdBy),
    })
    .returning<RuleRow[]>([...COLUMNS, 'created_by']);
  return toVersion('tenant')(row);
}
