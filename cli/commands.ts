import { creditBalance, debitBalance, runMonthlyBilling } from '../domain/billing/operations/index.js';
import type { Operation } from '../domain/shared/operation.js';
import { createTenant } from '../domain/tenants/operations/index.js';
import { connectProvider } from '../domain/transmission/operations/index.js';
import { createAdmin } from '../domain/users/operations/index.js';

type Flags = Record<string, string | boolean | undefined>;

export interface CliCommand {
  usage: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  // biome-ignore lint/suspicious/noExplicitAny: the table holds operations of every type
  operation: Operation<any, any>;
  /** Flags → the operation's input (snake_case, as in the API). */
  input(flags: Flags): Record<string, unknown>;
}

/** Commands that call a domain operation: the CLI is one more surface over `execute`. */
export const COMMANDS: Record<string, CliCommand> = {
  'admin create': {
    usage: 'einvoice admin create --email E --password P [--first-name F] [--last-name L]',
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
    },
    operation: createAdmin,
    input: (f) => ({ email: f.email, password: f.password, first_name: f['first-name'], last_name: f['last-name'] }),
  },
  'tenant create': {
    usage: 'einvoice tenant create --name N --email E --siret S [--partner] [--kyb verified]',
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      siret: { type: 'string' },
      'legal-name': { type: 'string' },
      partner: { type: 'boolean' },
      kyb: { type: 'string' },
    },
    operation: createTenant,
    input: (f) => ({
      name: f.name,
      email: f.email,
      siret: f.siret,
      legal_name: f['legal-name'],
      is_partner: f.partner === true,
      kyb_status: f.kyb,
    }),
  },
  'balance credit': {
    usage: 'einvoice balance credit (--tenant ID | --user ID) --amount A --reason R',
    options: {
      tenant: { type: 'string' },
      user: { type: 'string' },
      amount: { type: 'string' },
      reason: { type: 'string' },
    },
    operation: creditBalance,
    input: (f) => ({ tenant_id: f.tenant, user_id: f.user, amount: f.amount, reason: f.reason }),
  },
  'balance debit': {
    usage: 'einvoice balance debit (--tenant ID | --user ID) --amount A --reason R',
    options: {
      tenant: { type: 'string' },
      user: { type: 'string' },
      amount: { type: 'string' },
      reason: { type: 'string' },
    },
    operation: debitBalance,
    input: (f) => ({ tenant_id: f.tenant, user_id: f.user, amount: f.amount, reason: f.reason }),
  },
  'billing run': {
    usage: 'einvoice billing run [--month YYYY-MM] [--tenant ID]',
    options: { month: { type: 'string' }, tenant: { type: 'string' } },
    operation: runMonthlyBilling,
    input: (f) => ({ month: f.month, tenant_id: f.tenant }),
  },
  'provider connect': {
    usage:
      'einvoice provider connect --tenant ID --client-id C --client-secret S [--environment production|sandbox] [--sub-tenant ID] [--company ID]',
    options: {
      tenant: { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      environment: { type: 'string' },
      'sub-tenant': { type: 'string' },
      company: { type: 'string' },
    },
    operation: connectProvider,
    input: (f) => ({
      tenant_id: f.tenant,
      client_id: f['client-id'],
      client_secret: f['client-secret'],
      environment: f.environment,
      sub_tenant_id: f['sub-tenant'],
      company_id: f.company,
    }),
  },
};
