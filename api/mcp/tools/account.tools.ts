import { getBalance } from '../../../domain/billing/operations/index.js';
import { validateSiret, validateVat } from '../../../domain/companies/operations/index.js';
import { getCreditNoteAuditTrail } from '../../../domain/credit-notes/operations/index.js';
import { getInvoiceAuditTrail } from '../../../domain/invoicing/operations/index.js';
import { healthCheck } from '../../../domain/platform/operations/index.js';
import { getSignatureAuditTrail } from '../../../domain/signatures/operations/index.js';
import { validateApiKey } from '../../../domain/tenants/operations/index.js';
import { READ, type ToolSpec } from '../tool.js';

const AUDIT_TRAILS = {
  invoice: getInvoiceAuditTrail,
  signature: getSignatureAuditTrail,
  credit_note: getCreditNoteAuditTrail,
} as const;

/** The base tools beside invoices and signatures: system, validation, account and audit. */
export const accountTools: readonly ToolSpec[] = [
  {
    name: 'health_check',
    group: 'system',
    title: 'Service health',
    description: 'Whether the service and its database answer. Free; use it to check connectivity.',
    input: 'EmptyInput',
    annotations: READ,
    operation: healthCheck,
  },
  {
    name: 'validate_api_key',
    group: 'system',
    title: 'Check the API key',
    description:
      'Confirms the key of this connection works and tells whose it is (user or tenant), its environment (sandbox or production), its scopes and any sub-tenant or company it is bound to. Free.',
    input: 'EmptyInput',
    annotations: READ,
    operation: validateApiKey,
  },
  {
    name: 'validate_siret',
    group: 'validation',
    title: 'Check a SIRET',
    description:
      'Checks a French SIRET’s form and check digit and gives its SIREN and derived VAT number. Local check, no registry lookup; free. Use it before create_invoice.',
    input: 'ValidateSiretInput',
    annotations: READ,
    operation: validateSiret,
  },
  {
    name: 'validate_vat',
    group: 'validation',
    title: 'Check a VAT number',
    description:
      'Checks an EU intra-community VAT number’s form and, for a French number, its key (optionally against a SIRET). Local check, no VIES lookup; free.',
    input: 'ValidateVatInput',
    annotations: READ,
    operation: validateVat,
  },
  {
    name: 'get_balance',
    group: 'account',
    title: 'Prepaid balance',
    description:
      'The prepaid balance that billable calls (create_invoice 0.04 EUR, create_signature 1.20 EUR in production) are debited from. Free.',
    input: 'EmptyInput',
    annotations: READ,
    operation: getBalance,
  },
  {
    name: 'get_audit_trail',
    group: 'audit',
    title: 'Audit trail',
    description:
      'The hash-chained audit trail of an invoice, a signature request or a credit note, oldest first, with `integrity_valid` (the chain recomputed now). Free.',
    input: {
      type: 'object',
      additionalProperties: false,
      required: ['entity_type', 'entity_id'],
      properties: {
        entity_type: { type: 'string', enum: ['invoice', 'signature', 'credit_note'], description: 'What the id is.' },
        entity_id: { type: 'string', format: 'uuid', description: 'The invoice, signature request or credit note id.' },
      },
    },
    annotations: READ,
    operation: (args) => AUDIT_TRAILS[args.entity_type as keyof typeof AUDIT_TRAILS],
    toInput: (args) => ({ id: args.entity_id }),
  },
];
