import type { FiscalRulesReplay } from '../../schemas/fec.js';
import { Decimal } from '../billing/index.js';
import { vatGroups } from '../documents/index.js';
import { type AccountingFact, type DocumentFact, type Ecriture, postingsFor } from './fec-postings.js';
import type { LoadedFacts } from './fec-source.js';
import type { AppliedRules, RuleVersion } from './fiscal-rules.js';

const MAX_DIFFERENCES = 1000;
const MAX_DETAILS = 500;

interface AppliedRule {
  key: string;
  version: number;
  id: string;
  source: 'default' | 'tenant';
}

interface EntryRefView {
  entry_id: string;
  sequence_number: number;
  sub_tenant_id: string | null;
  fiscal_date: string;
}

export interface ReplayDifference extends EntryRefView {
  field: string;
  recorded: string | null;
  recomputed: string | null;
  rule: AppliedRule | null;
}

/** Schema `FiscalRulesReplay`: the type comes from the schema. */
export type ReplayReport = FiscalRulesReplay;

const applied = (v: RuleVersion): AppliedRule => ({ key: v.key, version: v.version, id: v.id, source: v.source });
const sum = (values: Decimal[]) => values.reduce((a, b) => a.plus(b), new Decimal(0));

/**
 * Recomputes, for each entry, what the rules in force on its date derive from it: its FEC postings
 * (journal and accounts; they must balance) and, for an invoice, its VAT rounded as `vat.rounding`
 * says, which is compared with the VAT recorded; the invoice row is compared with its ledger entry
 * too. Pure: nothing is written, and the chain is only read.
 */
export function replayFacts(
  loaded: LoadedFacts,
  rulesOn: (date: string) => AppliedRules,
  options: { details: boolean; now: Date },
): ReplayReport {
  const differences: ReplayDifference[] = [];
  const usage = new Map<string, AppliedRule & { entries: number }>();
  const details: NonNullable<ReplayReport['entries']> = [];
  const chains = new Set<string>();

  for (const problem of loaded.problems) {
    chains.add(problem.sub_tenant_id ?? '');
    differences.push({ ...problemRef(problem), field: 'data', recorded: problem.reason, recomputed: null, rule: null });
  }
  for (const fact of loaded.facts) {
    const ref = refOf(fact);
    chains.add(fact.entry.subTenantId ?? '');
    const rules = rulesOn(fact.entry.fiscalDate);
    for (const v of rules.versions) {
      const id = `${v.key}#${v.version}`;
      const seen = usage.get(id) ?? { ...applied(v), entries: 0 };
      seen.entries += 1;
      usage.set(id, seen);
    }
    const ecriture = postingsFor(fact, rules);
    const debit = sum(ecriture.postings.map((p) => p.debit));
    const credit = sum(ecriture.postings.map((p) => p.credit));
    if (!debit.equals(credit)) {
      differences.push({
        ...ref,
        field: 'balance',
        recorded: debit.toFixed(2),
        recomputed: credit.toFixed(2),
        rule: null,
      });
    }
    if (fact.kind === 'invoice') differences.push(...invoiceDifferences(fact, loaded, rules, ref));
    if (options.details && details.length < MAX_DETAILS) {
      details.push({
        ...ref,
        entry_type: fact.entry.entryType,
        rules: rules.versions.map(applied),
        postings: postingViews(ecriture),
      });
    }
  }
  return {
    entries_replayed: loaded.facts.length + loaded.problems.length,
    chains_replayed: chains.size,
    replayed_at: options.now.toISOString(),
    rules_applied: [...usage.values()].sort((a, b) =>
      a.key === b.key ? a.version - b.version : a.key < b.key ? -1 : 1,
    ),
    differences_count: differences.length,
    differences: differences.slice(0, MAX_DIFFERENCES),
    ...(options.details ? { entries: details } : {}),
  };
}

function invoiceDifferences(
  fact: DocumentFact,
  loaded: LoadedFacts,
  rules: AppliedRules,
  ref: EntryRefView,
): ReplayDifference[] {
  const out: ReplayDifference[] = [];
  const invoice = loaded.invoices.get(fact.entry.entityId);
  if (!invoice) {
    return [{ ...ref, field: 'invoice', recorded: fact.entry.entityId, recomputed: null, rule: null }];
  }
  const recorded = { total_ht: fact.totalHt, total_tax: fact.totalTax, total_ttc: fact.totalTtc };
  for (const field of ['total_ht', 'total_tax', 'total_ttc'] as const) {
    if (!new Decimal(invoice.totals[field]).equals(recorded[field])) {
      out.push({
        ...ref,
        field: `invoice.${field}`,
        recorded: recorded[field].toFixed(2),
        recomputed: new Decimal(invoice.totals[field]).toFixed(2),
        rule: null,
      });
    }
  }
  if (invoice.lines.length > 0) {
    const groups = vatGroups(invoice.lines.map((l) => ({ ...l, exemptionReason: null, exemptionCode: null })));
    const perRate = rules.vatRounding.mode === 'per_rate';
    const tax = sum(groups.map((g) => (perRate ? g.groupTax : g.linesTax)));
    if (!tax.equals(fact.totalTax)) {
      const rule = rules.versions.find((v) => v.key === 'vat.rounding');
      out.push({
        ...ref,
        field: 'total_tax',
        recorded: fact.totalTax.toFixed(2),
        recomputed: tax.toFixed(2),
        rule: rule ? applied(rule) : null,
      });
    }
  }
  return out;
}

const refOf = (fact: AccountingFact): EntryRefView => ({
  entry_id: fact.entry.id,
  sequence_number: fact.entry.sequenceNumber,
  sub_tenant_id: fact.entry.subTenantId,
  fiscal_date: fact.entry.fiscalDate,
});

const problemRef = (p: LoadedFacts['problems'][number]): EntryRefView => ({
  entry_id: p.entry_id,
  sequence_number: p.sequence_number,
  sub_tenant_id: p.sub_tenant_id,
  fiscal_date: p.fiscal_date,
});

const postingViews = (e: Ecriture) =>
  e.postings.map((p) => ({
    journal_code: e.journal.code,
    account: p.account.number,
    auxiliary_account: p.party?.code ?? null,
    debit: p.debit.toFixed(2),
    credit: p.credit.toFixed(2),
  }));
