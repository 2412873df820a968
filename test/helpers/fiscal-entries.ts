import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { NO_SUB_TENANT } from '../../domain/ledger/fiscal-chain-summary.js';
import type { Environment } from '../../domain/shared/caller.js';

export const GENESIS_HASH = '0'.repeat(64);
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** RFC 8785 for the flat objects of strings and integers the tests use: sorted keys, no spaces. */
export const canonicalJson = (data: Record<string, string | number>): string =>
  `{${Object.keys(data)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${JSON.stringify(data[key])}`)
    .join(',')}}`;

export interface EntryChain {
  tenantId: string;
  environment: Environment;
  subTenantId?: string | null;
}

/** The row that appends one valid entry to a chain, given the chain's head (DECISIONS.md "Fiscal ledger"). */
export function nextEntry(
  chain: EntryChain,
  head: { sequence_number: number; chain_hash: string } | undefined,
  data: Record<string, string | number> = { invoice_number: `F-${randomUUID().slice(0, 8)}`, total_ht: 100 },
) {
  const canonical = canonicalJson(data);
  const dataHash = sha256(canonical);
  const previousHash = head?.chain_hash ?? GENESIS_HASH;
  return {
    tenant_id: chain.tenantId,
    sub_tenant_id: chain.subTenantId ?? null,
    environment: chain.environment,
    sequence_number: (head?.sequence_number ?? 0) + 1,
    entry_type: 'invoice_created',
    entity_type: 'invoice',
    entity_id: randomUUID(),
    fiscal_date: '2026-11-22',
    data: canonical,
    canonical_data: canonical,
    data_hash: dataHash,
    previous_hash: previousHash,
    chain_hash: sha256(previousHash + dataHash),
    legal_status: chain.environment === 'production' ? 'definitive' : 'test',
  };
}

/** The columns tests read back. */
export interface FiscalEntryRow {
  id: string;
  sequence_number: number;
  data_hash: string;
  previous_hash: string;
  chain_hash: string;
}

export async function chainHead(db: Knex, chain: EntryChain) {
  return db('fiscal_entries')
    .where({ tenant_id: chain.tenantId, environment: chain.environment })
    .andWhere((w) => (chain.subTenantId ? w.where('sub_tenant_id', chain.subTenantId) : w.whereNull('sub_tenant_id')))
    .orderBy('sequence_number', 'desc')
    .first<FiscalEntryRow | undefined>();
}

/** Appends `count` valid entries to a chain with the owner's connection; returns the last one. */
export async function seedFiscalEntries(db: Knex, chain: EntryChain, count = 1) {
  let head = await chainHead(db, chain);
  for (let i = 0; i < count; i++) {
    [head] = await db('fiscal_entries').insert(nextEntry(chain, head)).returning<FiscalEntryRow[]>('*');
  }
  return head!;
}

/**
 * Appends `count` valid entries to a chain in one INSERT … SELECT, as the table owner: PostgreSQL
 * writes each entry's canonical text (`{"invoice_number":"B-<n>","total_ht":"<n mod 1000>.00"}`,
 * RFC 8785 for these flat strings) and its data_hash, and a recursive query walks from the chain's
 * head computing each previous_hash and chain_hash, so every entry passes the table's CHECK
 * constraints (both hashes) and the export's integrity check. The per-row link trigger is switched
 * off for that one transaction (others wait on the table's lock and never see it off): it moves the
 * chain's head row once per entry, and a million updates of one row in one transaction make each
 * next lookup walk every version before it. The links it checks hold by construction, and the
 * head row is then set once to the last entry.
 */
export async function seedFiscalChain(db: Knex, chain: EntryChain, count: number): Promise<void> {
  if (count < 1) return;
  const head = await chainHead(db, chain);
  const first = Number(head?.sequence_number ?? 0) + 1;
  const canonical = (n: string) => `format('{"invoice_number":"B-%s","total_ht":"%s.00"}', ${n}, ${n} % 1000)`;
  const sha = (text: string) => `encode(sha256(convert_to(${text}, 'UTF8')), 'hex')`;
  await db.transaction(async (trx) => {
    await trx.raw('alter table fiscal_entries disable trigger fiscal_entries_link');
    await trx.raw('alter table fiscal_chain_heads disable trigger fiscal_chain_heads_guard');
    const [last] = (
      await trx.raw(
        `
      with recursive links (n, data_hash, previous_hash, chain_hash) as (
        select s.n, s.data_hash, s.previous_hash, ${sha('s.previous_hash || s.data_hash')}
        from (
          select p.n, ${sha(canonical('p.n'))} as data_hash, p.previous_hash
          from (select ?::bigint as n, ?::text as previous_hash) p
        ) s
        union all
        select d.n, d.data_hash, l.chain_hash, ${sha('l.chain_hash || d.data_hash')}
        from links l cross join lateral (select l.n + 1 as n, ${sha(canonical('(l.n + 1)'))} as data_hash) d
        where l.n < ?::bigint
      ),
      inserted as (
        insert into fiscal_entries (tenant_id, sub_tenant_id, environment, sequence_number, entry_type, entity_type,
          entity_id, fiscal_date, data, canonical_data, data_hash, previous_hash, chain_hash, legal_status)
        select ?::uuid, ?::uuid, ?, l.n, 'invoice_created', 'invoice', gen_random_uuid(), '2026-11-22',
          ${canonical('l.n')}::jsonb, ${canonical('l.n')}, l.data_hash, l.previous_hash, l.chain_hash, ?
        from links l
        order by l.n
        returning sequence_number, chain_hash
      )
      select sequence_number, chain_hash from inserted order by sequence_number desc limit 1
      `,
        [
          first,
          head?.chain_hash ?? GENESIS_HASH,
          first + count - 1,
          chain.tenantId,
          chain.subTenantId ?? null,
          chain.environment,
          chain.environment === 'production' ? 'definitive' : 'test',
        ],
      )
    ).rows as { sequence_number: string; chain_hash: string }[];
    await trx.raw(
      `insert into fiscal_chain_heads (tenant_id, environment, chain_key, sequence_number, chain_hash)
       values (?, ?, coalesce(?::uuid, ?::uuid), ?, ?)
       on conflict (tenant_id, environment, chain_key)
       do update set sequence_number = excluded.sequence_number, chain_hash = excluded.chain_hash`,
      [
        chain.tenantId,
        chain.environment,
        chain.subTenantId ?? null,
        NO_SUB_TENANT,
        last.sequence_number,
        last.chain_hash,
      ],
    );
    await trx.raw('alter table fiscal_chain_heads enable trigger fiscal_chain_heads_guard');
    await trx.raw('alter table fiscal_entries enable trigger fiscal_entries_link');
  });
}
