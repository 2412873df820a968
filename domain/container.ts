import 'reflect-metadata';
import type { Knex } from 'knex';
import type { PgBoss } from 'pg-boss';
import { type DependencyContainer, type InjectionToken, container as rootContainer } from 'tsyringe';
import { ALL_SCHEMAS } from '../schemas/index.js';
import { createSchemaRegistry, type SchemaRegistry } from '../schemas/registry.js';
import { type TimeStampAuthority, timeStampAuthorityFor } from './anchoring/index.js';
import { type PaymentProviders, paymentProvidersFor } from './billing/index.js';
import { type KycProvider, kycProviderFor } from './companies/index.js';
import { type Mailer, mailerFor } from './mail/index.js';
import { type OnboardingProviders, onboardingProvidersFor } from './onboarding/index.js';
import { type BossRole, createBoss } from './shared/boss.js';
import { type Clock, systemClock } from './shared/clock.js';
import type { Config } from './shared/config.js';
import { APP_ROLE, createDatabase } from './shared/database.js';
import type { Deps } from './shared/deps.js';
import { createLogger, type Logger } from './shared/logger.js';
import { type SignatureProviders, signatureProvidersFor } from './signatures/index.js';
import { type EInvoicingProvider, einvoicingProviderFor } from './transmission/index.js';
import { type IdentityProvider, identityProviderFor, publicBaseUrlOf } from './users/index.js';
import { httpWebhookSender, type WebhookSender } from './webhooks/index.js';

export const CONFIG: InjectionToken<Config> = Symbol('Config');
export const DATABASE: InjectionToken<Knex> = Symbol('Database');
/** A small pool for rate-limit counters, whose commits do not wait for the disk. */
export const COUNTERS_DATABASE: InjectionToken<Knex> = Symbol('CountersDatabase');
export const BOSS: InjectionToken<PgBoss> = Symbol('Boss');
export const SCHEMAS: InjectionToken<SchemaRegistry> = Symbol('Schemas');
export const CLOCK: InjectionToken<Clock> = Symbol('Clock');
export const LOGGER: InjectionToken<Logger> = Symbol('Logger');
/** Company identity verification (KYB); the simulator until a real provider's contract is known. */
export const KYC_PROVIDER: InjectionToken<KycProvider> = Symbol('KycProvider');
export const ONBOARDING_PROVIDERS: InjectionToken<OnboardingProviders> = Symbol('OnboardingProviders');
export const MAILER: InjectionToken<Mailer> = Symbol('Mailer');
export const IDENTITY_PROVIDER: InjectionToken<IdentityProvider> = Symbol('IdentityProvider');
/** Outgoing webhooks; tests replace it to give the SSRF guard a resolver of their own. */
export const WEBHOOK_SENDER: InjectionToken<WebhookSender> = Symbol('WebhookSender');
/** RFC 3161 time-stamp authority: TSA_URL's, or the built-in local one. */
export const TIME_STAMP_AUTHORITY: InjectionToken<TimeStampAuthority> = Symbol('TimeStampAuthority');

/** Top-ups and auto-reloads: the payment simulator in sandbox, Stripe in production when configured. */
export const PAYMENT_PROVIDERS: InjectionToken<PaymentProviders> = Symbol('PaymentProviders');
/** E-invoicing: the simulator in sandbox, SuperPDP in production when configured. */
export const EINVOICING_PROVIDER: InjectionToken<EInvoicingProvider> = Symbol('EInvoicingProvider');

/** Electronic signatures in production: Openapi EU-SES with the account an admin configured. */
export const SIGNATURE_PROVIDERS: InjectionToken<SignatureProviders> = Symbol('SignatureProviders');

export interface ContainerOptions {
  /** Which process this is: decides the pg-boss role and the logger name. */
  role: BossRole;
  logger?: Logger;
}

/** The composition root shared by the web, worker and CLI processes; tests override single tokens. */
export function buildContainer(config: Config, options: ContainerOptions): DependencyContainer {
  if (!config.databaseUrl) throw new Error('buildContainer needs config.databaseUrl (start the database first)');
  const url = config.databaseUrl;
  const container = rootContainer.createChildContainer();
  container.register(CONFIG, { useValue: config });
  const log = options.logger ?? createLogger(config.logLevel, options.role);
  container.register(LOGGER, { useValue: log });
  container.register(DATABASE, {
    useValue: createDatabase(url, {
      poolMax: config.databasePoolMax,
      applicationName: `einvoice-${options.role}`,
      role: APP_ROLE,
      preparedStatements: config.databasePreparedStatements,
      log: { warn: (message) => log.warn({ source: 'knex' }, message) },
    }),
  });
  container.register(COUNTERS_DATABASE, {
    useValue: createDatabase(url, {
      poolMax: Math.max(2, Math.ceil(config.databasePoolMax / 2)),
      applicationName: `einvoice-${options.role}-counters`,
      role: APP_ROLE,
      preparedStatements: config.databasePreparedStatements,
      synchronousCommit: false,
      log: { warn: (message) => log.warn({ source: 'knex' }, message) },
    }),
  });
  container.register(BOSS, {
    useValue: createBoss(url, options.role, {
      superviseSeconds: config.workerSuperviseSeconds,
      preparedStatements: config.databasePreparedStatements,
    }),
  });
  container.register(SCHEMAS, { useValue: createSchemaRegistry(ALL_SCHEMAS) });
  container.register(CLOCK, { useValue: systemClock });
  container.register(KYC_PROVIDER, { useValue: kycProviderFor(config) });
  container.register(MAILER, { useValue: mailerFor(config, systemClock) });
  container.register(IDENTITY_PROVIDER, { useValue: identityProviderFor(config, systemClock) });
  container.register(WEBHOOK_SENDER, { useValue: httpWebhookSender({ allowPrivate: config.allowPrivateUrls }) });
  container.register(TIME_STAMP_AUTHORITY, {
    useFactory: (c) => timeStampAuthorityFor(config, c.resolve(DATABASE), c.resolve(CLOCK)),
  });
  container.register(EINVOICING_PROVIDER, {
    useFactory: (c) => einvoicingProviderFor(config, c.resolve(DATABASE), c.resolve(CLOCK)),
  });
  container.register(ONBOARDING_PROVIDERS, {
    useFactory: (c) => onboardingProvidersFor(config, c.resolve(DATABASE), c.resolve(CLOCK)),
  });
  container.register(SIGNATURE_PROVIDERS, {
    useFactory: (c) => signatureProvidersFor(config, c.resolve(DATABASE), c.resolve(CLOCK)),
  });
  container.register(PAYMENT_PROVIDERS, {
    useFactory: (c) =>
      paymentProvidersFor(config, c.resolve(DATABASE), c.resolve(CLOCK), () => publicBaseUrlOf(config)),
  });
  return container;
}

export function resolveDeps(container: DependencyContainer): Deps {
  return {
    config: container.resolve(CONFIG),
    db: container.resolve(DATABASE),
    counters: container.resolve(COUNTERS_DATABASE),
    boss: container.resolve(BOSS),
    schemas: container.resolve(SCHEMAS),
    clock: container.resolve(CLOCK),
    log: container.resolve(LOGGER),
    kycProvider: container.resolve(KYC_PROVIDER),
    mailer: container.resolve(MAILER),
    identityProvider: container.resolve(IDENTITY_PROVIDER),
    webhookSender: container.resolve(WEBHOOK_SENDER),
    tsa: container.resolve(TIME_STAMP_AUTHORITY),
    einvoicingProvider: container.resolve(EINVOICING_PROVIDER),
    onboardingProviders: container.resolve(ONBOARDING_PROVIDERS),
    ...container.resolve(SIGNATURE_PROVIDERS),
    paymentProviders: container.resolve(PAYMENT_PROVIDERS),
  };
}

/** Starts what the deps need to run (pg-boss), logging its errors instead of crashing. */
export async function startDeps(deps: Deps): Promise<void> {
  // Only the error's own fields: pg errors carry their client, which must not be dumped into logs.
  deps.boss.on('error', (err: Error & { code?: string }) =>
    deps.log.error(
      { err: { type: err.name, message: err.message, code: err.code, stack: err.stack } },
      'pg-boss error',
    ),
  );
  await deps.boss.start();
}

export async function stopDeps(deps: Deps, options: { graceful?: boolean; timeout?: number } = {}): Promise<void> {
  await deps.boss.stop({ graceful: options.graceful ?? true, timeout: options.timeout ?? 30_000 });
  await deps.db.destroy();
  await deps.counters.destroy();
}
