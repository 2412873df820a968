import type { Knex } from 'knex';
import type { PgBoss } from 'pg-boss';
import type { SchemaRegistry } from '../../schemas/registry.js';
import type { TimeStampAuthority } from '../anchoring/time-stamp-authority.js';
import type { KycProvider } from '../companies/kyc-provider.js';
import type { Mailer } from '../mail/mailer.js';
import type { EInvoicingProvider } from '../transmission/einvoicing-provider.js';
import type { IdentityProvider } from '../users/identity-provider.js';
import type { WebhookSender } from '../webhooks/webhook-sender.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from './logger.js';

/** What operations, routes and job handlers get from the composition root (domain/container.ts). */
export interface Deps {
  config: Config;
  db: Knex;
  /**
   * Rate-limit and login-failure counters: a separate pool with `synchronous_commit = off`, so that
   * counting a request does not wait for a disk flush (a crash may forget a few counts, no more).
   */
  counters: Knex;
  boss: PgBoss;
  schemas: SchemaRegistry;
  clock: Clock;
  log: Logger;
  /** Outgoing mail (SMTP, or the local mail log). */
  mailer: Mailer;
  /** "Sign in with Google" (Google itself, or the simulator with ENABLE_SIMULATORS). */
  identityProvider: IdentityProvider;
  /** Company identity verification (the simulator until a real provider's contract is known). */
  kycProvider: KycProvider;
  /** Outgoing webhooks over HTTP, through the SSRF guard. */
  webhookSender: WebhookSender;
  /** RFC 3161 time-stamps of fiscal closings (TSA_URL, or the built-in local authority). */
  tsa: TimeStampAuthority;
  /** E-invoicing provider: the simulator in sandbox, SuperPDP in production when configured. */
  einvoicingProvider: EInvoicingProvider;
}
