import type { Knex } from 'knex';
import { RULE_KEY_PATTERN } from '../domain/ledger/index.js';
import { APP_ROLE } from '../domain/shared/database.js';
import { refuseChanges } from './support/append-only.js';

/**
 * The built-in fiscal rules (version 1 of each key), shared by every tenant and in force from the
 * beginning until a tenant's own version of the key (fiscal_rules, version 2 and up) takes over
 * from its `effective_from`. The values are frozen here as they were first published; the code
 * reads them from this table (domain/ledger/fiscal-rules.ts), so a change is a new migration.
 * Append-only, and the application role may only read it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    create table fiscal_rule_defaults (
      id uuid primary key default gen_random_uuid(),
      key text not null unique check (key ~ '${RULE_KEY_PATTERN}'),
      version integer not null default 1 check (version = 1),
      value jsonb not null,
      description text not null,
      effective_from date not null,
      created_at timestamptz not null default now()
    );
    grant select on fiscal_rule_defaults to ${APP_ROLE};
  `);
  const rows = [
    {
      key: 'fec.journals',
      description: 'FEC journals (article A47 A-1 LPF): sales, purchases and bank, code and label.',
      value: {
        sales: { code: 'VT', label: 'Journal des ventes' },
        purchases: { code: 'AC', label: 'Journal des achats' },
        bank: { code: 'BQ', label: 'Journal de banque' },
      },
    },
    {
      key: 'fec.accounts',
      description: 'FEC accounts (plan comptable général) each posting uses: number and label.',
      value: {
        customers: { number: '411', label: 'Clients' },
        revenue: { number: '706', label: 'Prestations de services' },
        vat_collected: { number: '44571', label: 'TVA collectée' },
        bank: { number: '512', label: 'Banque' },
        suppliers: { number: '401', label: 'Fournisseurs' },
        purchases: { number: '607', label: 'Achats de marchandises' },
        vat_deductible: { number: '44566', label: 'TVA déductible sur autres biens et services' },
      },
    },
    {
      key: 'vat.rounding',
      description:
        'How VAT is rounded: per_rate (taxable amount × rate, rounded once per rate, EN 16931 BT-117) or per_line.',
      value: { mode: 'per_rate' },
    },
  ];
  await knex('fiscal_rule_defaults').insert(
    rows.map((r) => ({ ...r, value: JSON.stringify(r.value), effective_from: '1900-01-01' })),
  );
  await refuseChanges(knex, 'fiscal_rule_defaults');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table fiscal_rule_defaults; drop function fiscal_rule_defaults_refuse_change();');
}
