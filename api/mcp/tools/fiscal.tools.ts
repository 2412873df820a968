import {
  getFiscalAttestation,
  getFiscalCompliance,
  getFiscalExportLink,
} from '../../../domain/fiscal-exports/operations/index.js';
import {
  activateKillSwitch,
  checkFiscalIntegrity,
  deactivateKillSwitch,
  getKillSwitchStatus,
  listFiscalClosings,
  listFiscalEntries,
  listFiscalRules,
  performDailyClosing,
} from '../../../domain/ledger/operations/index.js';
import { CREATE, READ, type ToolSpec, UPDATE } from '../tool.js';

/** The fiscal tools: the tenant's ledger, closings, exports and kill switch (tenant keys, `fiscal:*` scopes). */
export const fiscalTools: readonly ToolSpec[] = [
  {
    name: 'get_fiscal_compliance',
    group: 'fiscal',
    title: 'Fiscal compliance report',
    description:
      'The fiscal compliance report of the tenant’s ledger: chains, closings, anchors, the last integrity check and what needs attention. `verify: true` re-checks the chains now (slower). Needs fiscal:read.',
    input: { base: 'FiscalComplianceInput', omit: ['environment'] },
    annotations: READ,
    operation: getFiscalCompliance,
  },
  {
    name: 'check_fiscal_integrity',
    group: 'fiscal',
    title: 'Check the ledger’s integrity',
    description:
      'Recomputes the hash chains of the fiscal ledger (all the tenant’s, or one sub-tenant’s) and reports any broken link. Changes no data (the check itself is recorded); needs fiscal:read.',
    input: 'FiscalIntegrityInput',
    annotations: UPDATE,
    operation: checkFiscalIntegrity,
  },
  {
    name: 'list_fiscal_entries',
    group: 'fiscal',
    title: 'List ledger entries',
    description:
      'Lists fiscal ledger entries (invoices, credit notes, payments, closings), 15 per page by default (at most 100), by date and type. Needs fiscal:read.',
    input: { base: 'FiscalEntriesInput', paging: true, omit: ['environment'] },
    annotations: READ,
    operation: listFiscalEntries,
  },
  {
    name: 'list_fiscal_closings',
    group: 'fiscal',
    title: 'List closings',
    description:
      'Lists daily, monthly and yearly closings with their totals and anchors, 15 per page by default (at most 100). Needs fiscal:read.',
    input: { base: 'FiscalClosingsInput', paging: true, omit: ['environment'] },
    annotations: READ,
    operation: listFiscalClosings,
  },
  {
    name: 'get_fiscal_attestation',
    group: 'fiscal',
    title: 'Yearly attestation',
    description:
      'The yearly fiscal attestation data for a calendar year (the publisher’s technical self-declaration). Needs fiscal:read.',
    input: { base: 'FiscalAttestationInput', omit: ['environment'] },
    annotations: READ,
    operation: getFiscalAttestation,
  },
  {
    name: 'get_kill_switch_status',
    group: 'fiscal',
    title: 'Kill switch status',
    description:
      'Whether the fiscal kill switch is on (invoice and credit-note creation blocked), since when and why. Needs fiscal:read.',
    input: 'EmptyInput',
    annotations: READ,
    operation: getKillSwitchStatus,
  },
  {
    name: 'list_fiscal_rules',
    group: 'fiscal',
    title: 'Fiscal rules in force',
    description:
      'The fiscal rules (VAT rates, rounding, numbering) in force today or on a given date. Needs fiscal:read.',
    input: 'FiscalRulesInput',
    annotations: READ,
    operation: listFiscalRules,
  },
  {
    name: 'export_fec',
    group: 'fiscal',
    title: 'Export the FEC',
    description:
      'Returns a link `{url, expires_at}`, valid 15 minutes without credentials, to the FEC (fichier des écritures comptables) of a calendar year or one month: a text file of 18 legal columns, pipe-separated by default (tab on request), built when the link is fetched. Needs fiscal:read.',
    input: {
      type: 'object',
      additionalProperties: false,
      required: ['year'],
      properties: {
        year: { type: 'integer', minimum: 2000, maximum: 2100, description: 'Calendar year.' },
        month: {
          type: 'integer',
          minimum: 1,
          maximum: 12,
          description: 'One month of the year; the whole year when left out.',
        },
        sub_tenant_id: {
          type: 'string',
          format: 'uuid',
          description: 'One sub-tenant’s FEC; the tenant’s own when left out.',
        },
        format: {
          type: 'string',
          enum: ['pipe', 'tab'],
          default: 'pipe',
          description: 'Field separator: pipe (default) or tab.',
        },
      },
    },
    annotations: READ,
    operation: getFiscalExportLink,
    toInput: (args) => ({ export: 'fec', ...args }),
  },
  {
    name: 'perform_daily_closing',
    group: 'fiscal',
    title: 'Close a day',
    description:
      'Closes a past day of the fiscal ledger (yesterday by default): totals sealed and time-stamped. A day closes once; closing it again answers the existing closing. Needs fiscal:write.',
    input: { base: 'PerformDailyClosingInput', omit: ['environment'] },
    annotations: { ...UPDATE },
    operation: performDailyClosing,
  },
  {
    name: 'activate_kill_switch',
    group: 'fiscal',
    title: 'Activate the kill switch',
    description:
      'Turns the fiscal kill switch ON: every invoice and credit-note creation of the tenant is refused (503) until it is turned off. DESTRUCTIVE to operations: use only on a suspected ledger problem. Needs fiscal:admin; `reason` is recorded.',
    input: 'ActivateKillSwitchInput',
    annotations: { ...CREATE, destructiveHint: true, idempotentHint: true },
    operation: activateKillSwitch,
  },
  {
    name: 'deactivate_kill_switch',
    group: 'fiscal',
    title: 'Deactivate the kill switch',
    description:
      'Turns the fiscal kill switch OFF: invoices and credit notes can be created again. Needs fiscal:admin; `reason` is required and recorded.',
    input: {
      type: 'object',
      additionalProperties: false,
      required: ['reason'],
      properties: {
        reason: { type: 'string', minLength: 1, maxLength: 1000, description: 'Why the switch goes off (recorded).' },
      },
    },
    annotations: UPDATE,
    operation: deactivateKillSwitch,
  },
  {
    name: 'export_forensic',
    group: 'fiscal',
    title: 'Forensic archive',
    description:
      'Returns a link `{url, expires_at}`, valid 15 minutes without credentials, to the forensic archive of the ledger for an auditor: a ZIP of entries, closings, anchors, certificates, a fresh integrity check and a verification script, built when the link is fetched. Needs fiscal:read.',
    input: { base: 'ForensicExportInput', omit: ['environment'] },
    annotations: READ,
    operation: getFiscalExportLink,
    toInput: (args) => ({ export: 'forensic', ...args }),
  },
];
