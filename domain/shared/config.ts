import type { RateLimitName, RateWindows } from './rate-limit-defaults.js';
import type { SettingParser, SettingReport } from './setting-parsers.js';
import { SETTINGS, type SettingName, type SettingValue } from './settings.js';

export { parseAppKey } from './setting-parsers.js';
export { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from './settings.js';

/**
 * Configuration comes only from environment variables, checked once at boot (spec/DECISIONS.md).
 * Each variable is declared once, with its default, parser and help, in SETTINGS (settings.ts).
 */
export interface Config {
  nodeEnv: 'development' | 'test' | 'production';
  port: number;
  host: string;
  /** Null: the embedded PostgreSQL under DATA_DIR is used (local setups only). */
  databaseUrl: string | null;
  databasePoolMax: number;
  /** 32-byte key for AES-256-GCM of secrets at rest; generated into DATA_DIR when unset locally. */
  appKey: Buffer | null;
  publicBaseUrl: string | null;
  corsOrigins: string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  jsonBodyLimit: string;
  workerConcurrency: number;
  embeddedPgPort: number;
  dataDir: string;
  /**
   * Reverse proxies in front of the web process that append to X-Forwarded-For: the client is the
   * N-th address from the right. 0: no proxy is trusted and the socket's peer is the client.
   */
  trustedProxyHops: number;
  /** Simulators that stand in for production providers (Google sign-in, KYC, e-invoicing); never in production. */
  enableSimulators: boolean;
  allowPrivateUrls: boolean;
  /** Seconds before each webhook retry (attempt 2, 3, ...); jitter of ±10 % is added when used. */
  webhookRetrySchedule: number[];
  /** How often a worker looks for jobs of crashed workers (expired, or without heartbeat). */
  workerSuperviseSeconds: number;
  databasePreparedStatements: boolean;
  finishedJobsKeepHours: number;
  /** Seconds between the worker's checks of the job tables' planner statistics (0: never). */
  queueAnalyzeSeconds: number;
  /** Multiplies every rate limit; 0 turns limiting off (load tests, benchmarks). */
  rateLimitScale: number;
  /** The specification's limits with RATE_LIMITS merged over them. */
  rateLimits: Record<RateLimitName, RateWindows>;
  /** Limits for single identities: `key:<id>`, `user:<id>`, `tenant:<id>`, `ip:<address>`. */
  rateLimitOverrides: Record<string, RateWindows>;
  /** Where mail goes when SMTP_URL is empty: a readable log file. */
  mailLogPath: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** Google sign-in (OAuth 2.0 / OpenID Connect); all null: the simulator with ENABLE_SIMULATORS, else not offered. */
  googleClientId: string | null;
  googleClientSecret: string | null;
  /** Where Google sends the browser back; default `<PUBLIC_BASE_URL>/api/v1/auth/google/callback`. */
  googleRedirectUri: string | null;
  /** An RFC 3161 time-stamp authority (POST application/timestamp-query); null: the built-in local authority. */
  tsaUrl: string | null;
  /** PEM certificates the TSA's tokens must chain to (required with TSA_URL). */
  tsaCaCertificates: string | null;
  /** How long a time-stamp request may take before it counts as the TSA being down. */
  tsaTimeoutMs: number;
  /** SuperPDP's API (provider-apis.md §1.1); null: production e-invoicing uses the simulator with ENABLE_SIMULATORS, else is refused. */
  superpdpBaseUrl: string | null;
  /** How long one SuperPDP call may take before it counts as the provider being unreachable. */
  superpdpTimeoutMs: number;
  /** Upload attempts while the e-invoicing provider is unreachable before the invoice is `failed`. */
  transmissionMaxAttempts: number;
  /** One call to the signature provider (Openapi). */
  openapiTimeoutMs: number;
  /** Handovers of a signature request while the signature provider is unreachable before the request is `failed`. */
  signatureSubmitMaxAttempts: number;
  /** One address for both Openapi hosts (a fake in tests); null: Openapi's own. */
  openapiBaseUrl: string | null;
  /** This service's OAuth app at SuperPDP (onboarding, provider-apis.md §1.2); null: the simulator or nothing. */
  superpdpClientId: string | null;
  superpdpClientSecret: string | null;
  /** The onboarding callback page's address as registered at SuperPDP; null: derived from PUBLIC_BASE_URL. */
  superpdpRedirectUri: string | null;
  /** Shared secret of the signed `/webhooks/superpdp*` sync triggers (provider-apis.md §1.10). */
  superpdpWebhookSecret: string | null;
  /** Stripe (provider-apis.md §3) for production top-ups; null: the payment simulator with ENABLE_SIMULATORS, else refused. */
  stripeSecretKey: string | null;
  stripeApiBase: string;
  /** The `whsec_…` secret that signs Stripe's calls to `/webhooks/stripe`. */
  stripeWebhookSecret: string | null;
  stripeTimeoutMs: number;
  /** Where a checkout sends the browser back; null: `<PUBLIC_BASE_URL>/checkout/return`. */
  topUpReturnUrl: string | null;
  /** Seconds between the simulator's lifecycle steps (uploaded → transmitted → processing → completed). */
  simulatorStepSeconds: number;
  /** An anchor pending longer than this makes the fiscal compliance report non-compliant. */
  fiscalAnchorPendingHours: number;
  /** The publisher (éditeur) that issues the attestations and ISCA documents; null fields are shown as not set. */
  publisher: PublisherConfig;
  /** Settings that work but should change (a deprecated name): logged once at boot. */
  warnings: string[];
}

/** The publisher's identity, as the self-attestations name it (PUBLISHER_* variables). */
export interface PublisherConfig {
  name: string | null;
  /** 9 digits, Luhn-valid. */
  siren: string | null;
  address: string | null;
  /** Intra-EU VAT number (PUBLISHER_VAT_NUMBER); null when unset (the billing seller derives it from the SIREN). */
  vatNumber: string | null;
  /** Who signs for the publisher: name and capacity. */
  signatory: string | null;
  contact: string | null;
  /** The software's commercial name; the package name when unset. */
  softwareName: string | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

/**
 * Reads every setting of SETTINGS (domain/shared/settings.ts) with its parser, then checks the rules
 * that tie settings together. Problems are listed in the order the settings are read below.
 */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const given = (name: SettingName): boolean => (env[name] ?? '').trim() !== '';
  const raw = (name: SettingName): string => (given(name) ? (env[name] as string).trim() : SETTINGS[name].default);
  const parsed = new Map<SettingName, unknown>();
  const read = <N extends SettingName>(name: N): SettingValue<N> => {
    if (!parsed.has(name)) {
      const value = raw(name);
      const report: SettingReport = {
        // A secret's own value is never echoed; a masked form of it (a URL without its password) may be.
        fail: (why, shown = value) =>
          problems.push(
            SETTINGS[name].secret && shown === value
              ? `${name}: ${why}`
              : `${name}: ${why} (got ${JSON.stringify(shown)})`,
          ),
        problem: (text) => problems.push(`${name}: ${text}`),
      };
      parsed.set(name, (SETTINGS[name].parse as SettingParser<unknown>)(value, report));
    }
    return parsed.get(name) as SettingValue<N>;
  };

  const nodeEnv = read('NODE_ENV');
  const databaseUrl = read('DATABASE_URL');
  const appKey = read('APP_KEY');
  if (!given('APP_KEY') && nodeEnv === 'production') {
    problems.push('APP_KEY: is required when NODE_ENV=production (generate one with `npx einvoice key generate`)');
  }
  if (nodeEnv === 'production' && !databaseUrl) {
    problems.push('DATABASE_URL: is required when NODE_ENV=production (the embedded database is for local use)');
  }
  const publicBaseUrl = read('PUBLIC_BASE_URL');
  const corsOrigins = read('CORS_ORIGINS');
  const jsonBodyLimit = read('JSON_BODY_LIMIT');
  const rateLimitScale = read('RATE_LIMIT_SCALE');
  const rateLimits = read('RATE_LIMITS');
  const rateLimitOverrides = read('RATE_LIMIT_OVERRIDES');
  const webhookRetrySchedule = read('WEBHOOK_RETRY_SCHEDULE');
  const smtpUrl = read('SMTP_URL');
  const dataDir = read('DATA_DIR');
  const googleClientId = read('GOOGLE_CLIENT_ID');
  const googleClientSecret = read('GOOGLE_CLIENT_SECRET');
  if (Boolean(googleClientId) !== Boolean(googleClientSecret)) {
    problems.push('GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: set both (Google sign-in) or neither (simulator)');
  }
  const googleRedirectUri = read('GOOGLE_REDIRECT_URI');
  const tsaUrl = read('TSA_URL');
  const tsaCaCertificates = read('TSA_CA_CERT');
  if (tsaUrl && !tsaCaCertificates) {
    problems.push("TSA_CA_CERT: is required with TSA_URL (the TSA's root certificate, to verify its time-stamps)");
  }
  const publisherSiren = read('PUBLISHER_SIREN');
  const superpdpBaseUrl = read('SUPERPDP_BASE_URL');
  if (Boolean(read('SUPERPDP_CLIENT_ID')) !== Boolean(read('SUPERPDP_CLIENT_SECRET'))) {
    problems.push('SUPERPDP_CLIENT_ID, SUPERPDP_CLIENT_SECRET: set both (SuperPDP onboarding) or neither');
  }

  const warnings: string[] = [];
  /** TRUST_PROXY=true, the old switch, stays an alias of one hop. */
  const proxyHops = (): number => {
    const trustProxy = read('TRUST_PROXY');
    const hops = read('TRUSTED_PROXY_HOPS');
    if (!trustProxy) return hops;
    if (!given('TRUSTED_PROXY_HOPS')) {
      warnings.push('TRUST_PROXY=true is deprecated: it means TRUSTED_PROXY_HOPS=1; set that instead');
      return 1;
    }
    if (hops === 0) {
      problems.push('TRUST_PROXY: true contradicts TRUSTED_PROXY_HOPS=0; set only TRUSTED_PROXY_HOPS');
    }
    return hops;
  };

  const config: Config = {
    nodeEnv,
    port: read('PORT'),
    host: read('HOST'),
    databaseUrl,
    databasePoolMax: read('DATABASE_POOL_MAX'),
    appKey,
    publicBaseUrl,
    corsOrigins,
    logLevel: read('LOG_LEVEL'),
    jsonBodyLimit,
    workerConcurrency: read('WORKER_CONCURRENCY'),
    embeddedPgPort: read('EMBEDDED_PG_PORT'),
    dataDir,
    trustedProxyHops: proxyHops(),
    enableSimulators: read('ENABLE_SIMULATORS'),
    allowPrivateUrls: read('ALLOW_PRIVATE_URLS'),
    webhookRetrySchedule,
    workerSuperviseSeconds: read('WORKER_SUPERVISE_SECONDS'),
    databasePreparedStatements: read('DATABASE_PREPARED_STATEMENTS'),
    finishedJobsKeepHours: read('FINISHED_JOBS_KEEP_HOURS'),
    queueAnalyzeSeconds: read('QUEUE_ANALYZE_SECONDS'),
    rateLimitScale,
    rateLimits,
    rateLimitOverrides,
    mailLogPath: read('MAIL_LOG') ?? `${dataDir}/mail.log`,
    smtpUrl,
    mailFrom: read('MAIL_FROM'),
    googleClientId,
    googleClientSecret,
    googleRedirectUri,
    tsaUrl,
    tsaCaCertificates,
    tsaTimeoutMs: read('TSA_TIMEOUT_MS'),
    superpdpBaseUrl,
    superpdpTimeoutMs: read('SUPERPDP_TIMEOUT_MS'),
    transmissionMaxAttempts: read('TRANSMISSION_MAX_ATTEMPTS'),
    openapiTimeoutMs: read('OPENAPI_TIMEOUT_MS'),
    signatureSubmitMaxAttempts: read('SIGNATURE_SUBMIT_MAX_ATTEMPTS'),
    openapiBaseUrl: read('OPENAPI_BASE_URL'),
    superpdpClientId: read('SUPERPDP_CLIENT_ID'),
    superpdpClientSecret: read('SUPERPDP_CLIENT_SECRET'),
    superpdpRedirectUri: read('SUPERPDP_REDIRECT_URI'),
    superpdpWebhookSecret: read('SUPERPDP_WEBHOOK_SECRET'),
    stripeSecretKey: read('STRIPE_SECRET_KEY'),
    stripeApiBase: read('STRIPE_API_BASE') as string,
    stripeWebhookSecret: read('STRIPE_WEBHOOK_SECRET'),
    stripeTimeoutMs: read('STRIPE_TIMEOUT_MS'),
    topUpReturnUrl: read('TOP_UP_RETURN_URL'),
    simulatorStepSeconds: read('SIMULATOR_STEP_SECONDS'),
    fiscalAnchorPendingHours: read('FISCAL_ANCHOR_PENDING_HOURS'),
    publisher: {
      name: read('PUBLISHER_NAME'),
      siren: publisherSiren,
      address: read('PUBLISHER_ADDRESS'),
      vatNumber: read('PUBLISHER_VAT_NUMBER'),
      signatory: read('PUBLISHER_SIGNATORY'),
      contact: read('PUBLISHER_CONTACT'),
      softwareName: read('SOFTWARE_NAME'),
    },
    warnings,
  };
  // A declared setting the object above does not use is still checked.
  for (const name of Object.keys(SETTINGS) as SettingName[]) read(name);
  if (nodeEnv === 'production') problems.push(...productionRefusals(config));
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/**
 * Settings that fail open, refused with NODE_ENV=production: a stand-in provider that approves
 * anyone, outbound calls to private hosts, no rate limits, mail that never leaves the machine.
 */
function productionRefusals(config: Config): string[] {
  const refusals: string[] = [];
  if (config.enableSimulators) {
    refusals.push('ENABLE_SIMULATORS: must not be true when NODE_ENV=production (the simulators approve anyone)');
  }
  if (config.allowPrivateUrls) {
    refusals.push(
      'ALLOW_PRIVATE_URLS: must not be true when NODE_ENV=production (outbound calls could reach private hosts)',
    );
  }
  if (config.rateLimitScale === 0) {
    refusals.push('RATE_LIMIT_SCALE: must not be 0 when NODE_ENV=production (it turns rate limiting off)');
  }
  if (!config.smtpUrl) {
    refusals.push('SMTP_URL: is required when NODE_ENV=production (without it, mail only reaches a local log file)');
  }
  return refusals;
}
