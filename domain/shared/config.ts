import { readFileSync } from 'node:fs';
import { luhn } from './luhn.js';
import { DEFAULT_RATE_LIMITS, type RateLimitName, type RateWindows } from './rate-limit-defaults.js';

/**
 * Webhook retries (spec/DECISIONS.md, "Outgoing webhooks"): the first attempt goes at once, then
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later: 8 attempts over about 27.5 hours.
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

/** Configuration comes only from environment variables, checked once at boot (spec/DECISIONS.md). */
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
  /** Shared secret of the signed `/webhooks/superpdp*` sync triggers (provider-apis.md §1.10). */
  superpdpWebhookSecret: string | null;
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

/** One row per variable: its default and how to read it. `.env.example` lists the same set. */
export const CONFIG_VARIABLES = {
  NODE_ENV: { default: 'development', help: 'development, test or production' },
  PORT: { default: '3000', help: 'HTTP port of the web process (0 picks a free one)' },
  HOST: { default: '0.0.0.0', help: 'interface the web process listens on' },
  DATABASE_URL: { default: '', help: 'postgres:// URL; empty starts the embedded PostgreSQL under DATA_DIR' },
  DATABASE_POOL_MAX: { default: '10', help: 'connections per process' },
  APP_KEY: { default: '', help: 'base64:<32 bytes> or 64 hex chars; required in production' },
  PUBLIC_BASE_URL: { default: '', help: 'external URL of the API (links, OpenAPI servers)' },
  CORS_ORIGINS: { default: '', help: 'comma-separated browser origins allowed to call the API with credentials' },
  LOG_LEVEL: { default: 'info', help: 'fatal, error, warn, info, debug, trace or silent' },
  JSON_BODY_LIMIT: { default: '1mb', help: 'largest JSON body accepted (413 beyond)' },
  WORKER_CONCURRENCY: { default: '4', help: 'jobs worked at once per queue in one worker process' },
  EMBEDDED_PG_PORT: { default: '54329', help: 'port of the embedded PostgreSQL (when DATABASE_URL is empty)' },
  DATA_DIR: { default: '.data', help: 'local state: embedded database, generated APP_KEY' },
  TRUSTED_PROXY_HOPS: {
    default: '0',
    help: 'reverse proxies in front of the web process; the client IP is the N-th X-Forwarded-For address from the right (0: none trusted)',
  },
  TRUST_PROXY: { default: 'false', help: 'deprecated: true is TRUSTED_PROXY_HOPS=1' },
  ENABLE_SIMULATORS: {
    default: 'false',
    help: 'true runs the Google sign-in, KYC and production e-invoicing simulators (local only; refused in production)',
  },
  ALLOW_PRIVATE_URLS: {
    default: 'false',
    help: 'true allows http and private addresses for outbound calls (local only; refused in production)',
  },
  WEBHOOK_RETRY_SCHEDULE: {
    default: DEFAULT_WEBHOOK_RETRY_SCHEDULE.join(','),
    help: 'seconds before each webhook retry, comma-separated (default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h)',
  },
  WORKER_SUPERVISE_SECONDS: {
    default: '60',
    help: 'how often a worker re-queues the jobs of a crashed worker (expired or without heartbeat)',
  },
  RATE_LIMIT_SCALE: {
    default: '1',
    help: 'multiplies every rate limit; 0 turns rate limiting off (load tests; refused in production)',
  },
  RATE_LIMITS: {
    default: '',
    help: 'JSON over the default limits, e.g. {"api_production":{"per_minute":120}}',
  },
  RATE_LIMIT_OVERRIDES: {
    default: '',
    help: 'JSON limits per identity, e.g. {"user:<uuid>":{"per_minute":600},"ip:203.0.113.7":{"per_minute":10}}',
  },
  SMTP_URL: {
    default: '',
    help: 'smtp(s)://user:pass@host:port for outgoing mail; empty writes mail to MAIL_LOG (required in production)',
  },
  MAIL_FROM: { default: 'E-invoicing <no-reply@localhost>', help: 'sender of outgoing mail' },
  MAIL_LOG: { default: '', help: 'file the local mail log is appended to (default DATA_DIR/mail.log)' },
  GOOGLE_CLIENT_ID: {
    default: '',
    help: 'OAuth client id for Google sign-in; empty: the simulator with ENABLE_SIMULATORS, else no Google sign-in',
  },
  GOOGLE_CLIENT_SECRET: { default: '', help: 'OAuth client secret for Google sign-in' },
  GOOGLE_REDIRECT_URI: {
    default: '',
    help: 'redirect URI registered with Google (default PUBLIC_BASE_URL/api/v1/auth/google/callback)',
  },
  TSA_URL: {
    default: '',
    help: 'RFC 3161 time-stamp authority for closing anchors; empty uses the built-in local authority (not qualified)',
  },
  TSA_CA_CERT: { default: '', help: "PEM file (or PEM text) of the TSA's root certificate(s); required with TSA_URL" },
  TSA_TIMEOUT_MS: { default: '10000', help: 'time-stamp request timeout; a slower TSA counts as down and is retried' },
  SUPERPDP_BASE_URL: {
    default: '',
    help: 'SuperPDP API base URL (https://api.superpdp.tech); empty: production invoices use the simulator with ENABLE_SIMULATORS, else are refused',
  },
  SUPERPDP_TIMEOUT_MS: {
    default: '15000',
    help: 'timeout of one SuperPDP call; slower counts as unreachable (retried)',
  },
  SUPERPDP_WEBHOOK_SECRET: { default: '', help: 'shared secret of the signed /webhooks/superpdp* sync triggers' },
  SIMULATOR_STEP_SECONDS: { default: '2', help: "seconds between the e-invoicing simulator's lifecycle steps" },
  FISCAL_ANCHOR_PENDING_HOURS: {
    default: '6',
    help: 'hours an anchor may stay pending before the fiscal compliance report counts it as a failure',
  },
  PUBLISHER_NAME: { default: '', help: 'legal name of the publisher (éditeur) that issues the fiscal attestations' },
  PUBLISHER_SIREN: { default: '', help: "the publisher's SIREN (9 digits), printed on the attestations" },
  PUBLISHER_ADDRESS: { default: '', help: "the publisher's registered address, printed on the attestations" },
  PUBLISHER_SIGNATORY: {
    default: '',
    help: 'who signs the attestations for the publisher: name and capacity (e.g. "Jane Doe, présidente")',
  },
  PUBLISHER_CONTACT: { default: '', help: 'an e-mail or URL where the administration can reach the publisher' },
  SOFTWARE_NAME: {
    default: '',
    help: "the software's commercial name on the attestations (default: the package name)",
  },
} as const;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const raw = (name: keyof typeof CONFIG_VARIABLES): string => {
    const value = env[name];
    return value === undefined || value.trim() === '' ? CONFIG_VARIABLES[name].default : value.trim();
  };
  const fail = (name: string, why: string, value: string) => {
    problems.push(`${name}: ${why} (got ${JSON.stringify(value)})`);
  };
  const int = (name: keyof typeof CONFIG_VARIABLES, min: number, max: number): number => {
    const value = raw(name);
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) fail(name, `must be an integer from ${min} to ${max}`, value);
    return n;
  };
  const bool = (name: keyof typeof CONFIG_VARIABLES): boolean => {
    const value = raw(name).toLowerCase();
    if (!['true', 'false', '1', '0'].includes(value)) fail(name, 'must be true or false', value);
    return value === 'true' || value === '1';
  };
  const oneOf = <T extends string>(name: keyof typeof CONFIG_VARIABLES, allowed: readonly T[]): T => {
    const value = raw(name);
    if (!allowed.includes(value as T)) fail(name, `must be one of ${allowed.join(', ')}`, value);
    return value as T;
  };

  const nodeEnv = oneOf('NODE_ENV', ['development', 'test', 'production'] as const);

  const databaseUrl = raw('DATABASE_URL') || null;
  if (databaseUrl && !/^postgres(ql)?:\/\/[^\s]+$/.test(databaseUrl)) {
    fail('DATABASE_URL', 'must be a postgres:// or postgresql:// URL', databaseUrl.replace(/:[^:@/]*@/, ':***@'));
  }

  const appKeyText = raw('APP_KEY');
  let appKey: Buffer | null = null;
  if (appKeyText) {
    appKey = parseAppKey(appKeyText);
    if (!appKey) problems.push('APP_KEY: must be base64:<32 bytes> or 64 hexadecimal characters');
  } else if (nodeEnv === 'production') {
    problems.push('APP_KEY: is required when NODE_ENV=production (generate one with `npx einvoice key generate`)');
  }
  if (nodeEnv === 'production' && !databaseUrl) {
    problems.push('DATABASE_URL: is required when NODE_ENV=production (the embedded database is for local use)');
  }

  const publicBaseUrl = raw('PUBLIC_BASE_URL') || null;
  if (publicBaseUrl && !isHttpUrl(publicBaseUrl)) fail('PUBLIC_BASE_URL', 'must be an http(s) URL', publicBaseUrl);

  const corsOrigins = raw('CORS_ORIGINS')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (!isHttpUrl(origin) || new URL(origin).origin !== origin.replace(/\/$/, '')) {
      fail('CORS_ORIGINS', 'each entry must be an origin such as https://app.example.com', origin);
    }
  }

  const jsonBodyLimit = raw('JSON_BODY_LIMIT').toLowerCase();
  if (!/^\d+(b|kb|mb)?$/.test(jsonBodyLimit))
    fail('JSON_BODY_LIMIT', 'must be a size such as 1mb or 512kb', jsonBodyLimit);

  const rateLimitScaleText = raw('RATE_LIMIT_SCALE');
  const rateLimitScale = Number(rateLimitScaleText);
  if (!/^\d+(\.\d+)?$/.test(rateLimitScaleText) || rateLimitScale > 1000) {
    fail('RATE_LIMIT_SCALE', 'must be a number from 0 to 1000', rateLimitScaleText);
  }
  const rateLimits = { ...DEFAULT_RATE_LIMITS };
  for (const [name, windows] of Object.entries(parseWindows('RATE_LIMITS', raw('RATE_LIMITS'), problems))) {
    if (!(name in DEFAULT_RATE_LIMITS)) {
      problems.push(
        `RATE_LIMITS: unknown limit ${JSON.stringify(name)} (known: ${Object.keys(DEFAULT_RATE_LIMITS).join(', ')})`,
      );
    } else rateLimits[name as RateLimitName] = windows;
  }
  const rateLimitOverrides = parseWindows('RATE_LIMIT_OVERRIDES', raw('RATE_LIMIT_OVERRIDES'), problems);
  for (const identity of Object.keys(rateLimitOverrides)) {
    if (!/^(key|user|tenant|ip):\S+$/.test(identity)) {
      problems.push(
        `RATE_LIMIT_OVERRIDES: identity ${JSON.stringify(identity)} must be key:, user:, tenant: or ip: followed by a value`,
      );
    }
  }
  const scheduleText = raw('WEBHOOK_RETRY_SCHEDULE');
  const webhookRetrySchedule = scheduleText.split(',').map((part) => Number(part.trim()));
  if (
    webhookRetrySchedule.length > 20 ||
    !scheduleText.split(',').every((part) => /^\d+$/.test(part.trim())) ||
    webhookRetrySchedule.some((n) => n > 7 * 86400)
  ) {
    fail(
      'WEBHOOK_RETRY_SCHEDULE',
      'must be at most 20 comma-separated whole seconds, each at most 604800',
      scheduleText,
    );
  }
  const smtpUrl = raw('SMTP_URL') || null;
  if (smtpUrl && !/^smtps?:\/\/\S+$/.test(smtpUrl)) problems.push('SMTP_URL: must be an smtp:// or smtps:// URL');
  const dataDir = raw('DATA_DIR');
  const googleClientId = raw('GOOGLE_CLIENT_ID') || null;
  const googleClientSecret = raw('GOOGLE_CLIENT_SECRET') || null;
  const googleRedirectUri = raw('GOOGLE_REDIRECT_URI') || null;
  if (Boolean(googleClientId) !== Boolean(googleClientSecret)) {
    problems.push('GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET: set both (Google sign-in) or neither (simulator)');
  }
  if (googleRedirectUri && !isHttpUrl(googleRedirectUri)) {
    fail('GOOGLE_REDIRECT_URI', 'must be an http(s) URL', googleRedirectUri);
  }
  const tsaUrl = raw('TSA_URL') || null;
  if (tsaUrl && !isHttpUrl(tsaUrl)) fail('TSA_URL', 'must be an http(s) URL', tsaUrl);
  const tsaCaCertificates = readPemSetting(raw('TSA_CA_CERT'), problems);
  if (tsaUrl && !tsaCaCertificates) {
    problems.push("TSA_CA_CERT: is required with TSA_URL (the TSA's root certificate, to verify its time-stamps)");
  }
  const publisherSiren = raw('PUBLISHER_SIREN').replace(/\s/g, '') || null;
  if (publisherSiren && !(/^[0-9]{9}$/.test(publisherSiren) && luhn(publisherSiren))) {
    fail('PUBLISHER_SIREN', 'must be a SIREN: 9 digits with a valid check digit', publisherSiren);
  }
  const text = (name: keyof typeof CONFIG_VARIABLES) => raw(name) || null;

  const superpdpBaseUrl = raw('SUPERPDP_BASE_URL').replace(/\/+$/, '') || null;
  if (superpdpBaseUrl && !isHttpUrl(superpdpBaseUrl))
    fail('SUPERPDP_BASE_URL', 'must be an http(s) URL', superpdpBaseUrl);

  const warnings: string[] = [];
  /** TRUST_PROXY=true, the old switch, stays an alias of one hop. */
  const proxyHops = (): number => {
    const trustProxy = bool('TRUST_PROXY');
    const hopsGiven = (env.TRUSTED_PROXY_HOPS ?? '').trim() !== '';
    const hops = int('TRUSTED_PROXY_HOPS', 0, 10);
    if (!trustProxy) return hops;
    if (!hopsGiven) {
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
    port: int('PORT', 0, 65535),
    host: raw('HOST'),
    databaseUrl,
    databasePoolMax: int('DATABASE_POOL_MAX', 1, 1000),
    appKey,
    publicBaseUrl,
    corsOrigins: corsOrigins.map((o) => o.replace(/\/$/, '')),
    logLevel: oneOf('LOG_LEVEL', LOG_LEVELS),
    jsonBodyLimit,
    workerConcurrency: int('WORKER_CONCURRENCY', 1, 100),
    embeddedPgPort: int('EMBEDDED_PG_PORT', 1, 65535),
    dataDir,
    trustedProxyHops: proxyHops(),
    enableSimulators: bool('ENABLE_SIMULATORS'),
    allowPrivateUrls: bool('ALLOW_PRIVATE_URLS'),
    webhookRetrySchedule,
    workerSuperviseSeconds: int('WORKER_SUPERVISE_SECONDS', 1, 3600),
    rateLimitScale,
    rateLimits,
    rateLimitOverrides,
    mailLogPath: raw('MAIL_LOG') || `${dataDir}/mail.log`,
    smtpUrl,
    mailFrom: raw('MAIL_FROM'),
    googleClientId,
    googleClientSecret,
    googleRedirectUri,
    tsaUrl,
    tsaCaCertificates,
    tsaTimeoutMs: int('TSA_TIMEOUT_MS', 100, 120_000),
    superpdpBaseUrl,
    superpdpTimeoutMs: int('SUPERPDP_TIMEOUT_MS', 100, 120_000),
    superpdpWebhookSecret: raw('SUPERPDP_WEBHOOK_SECRET') || null,
    simulatorStepSeconds: int('SIMULATOR_STEP_SECONDS', 0, 3600),
    fiscalAnchorPendingHours: int('FISCAL_ANCHOR_PENDING_HOURS', 1, 720),
    publisher: {
      name: text('PUBLISHER_NAME'),
      siren: publisherSiren,
      address: text('PUBLISHER_ADDRESS'),
      signatory: text('PUBLISHER_SIGNATORY'),
      contact: text('PUBLISHER_CONTACT'),
      softwareName: text('SOFTWARE_NAME'),
    },
    warnings,
  };
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

/** `{"name": {"per_minute": n, "per_hour": n}}`, each count a positive integer. */
function parseWindows(variable: string, text: string, problems: string[]): Record<string, RateWindows> {
  if (!text) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    problems.push(`${variable}: must be a JSON object`);
    return {};
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    problems.push(`${variable}: must be a JSON object`);
    return {};
  }
  const out: Record<string, RateWindows> = {};
  for (const [name, value] of Object.entries(parsed as Record<string, unknown>)) {
    const windows = value as Record<string, unknown>;
    const keys = value && typeof value === 'object' ? Object.keys(windows) : [];
    const valid =
      keys.length > 0 &&
      keys.every(
        (k) => (k === 'per_minute' || k === 'per_hour') && Number.isInteger(windows[k]) && (windows[k] as number) > 0,
      );
    if (!valid) {
      problems.push(`${variable}: ${name} must be {"per_minute": n, "per_hour": n} with positive integers`);
      continue;
    }
    out[name] = windows as RateWindows;
  }
  return out;
}

/** A PEM setting given inline (`-----BEGIN ...`, `\\n` allowed for newlines) or as a file path. */
function readPemSetting(value: string, problems: string[]): string | null {
  if (!value) return null;
  let pem = value.replace(/\\n/g, '\n');
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    try {
      pem = readFileSync(value, 'utf8');
    } catch (err) {
      problems.push(
        `TSA_CA_CERT: cannot read ${JSON.stringify(value)} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
      );
      return null;
    }
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    problems.push('TSA_CA_CERT: holds no PEM certificate (-----BEGIN CERTIFICATE-----)');
    return null;
  }
  return pem;
}

export function parseAppKey(text: string): Buffer | null {
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  const match = /^base64:([A-Za-z0-9+/]+={0,2})$/.exec(text);
  if (!match) return null;
  const key = Buffer.from(match[1], 'base64');
  return key.length === 32 ? key : null;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
