import * as parse from './setting-parsers.js';

/**
 * Webhook retries (spec/DECISIONS.md, "Outgoing webhooks"): the first attempt goes at once, then
 * 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later: 8 attempts over about 27.5 hours.
 */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

/** FINISHED_JOBS_KEEP_HOURS's default: a weekend's finished jobs, where pg-boss would keep a week's. */
export const DEFAULT_FINISHED_JOBS_KEEP_HOURS = 48;

/** The processes that read a setting: the web and worker processes, the `einvoice` command-line tool. */
export type SettingProcess = 'web' | 'worker' | 'cli';

export interface Setting<T> {
  /** The text used when the variable is unset or empty; '' means "not set". */
  default: string;
  /** What the docs show as the default when it is derived from another setting. */
  shownDefault?: string;
  /** One line for `.env.example` and docs/configuration.md (Markdown code spans allowed). */
  help: string;
  processes: readonly SettingProcess[];
  /**
   * Credentials (or URLs that may hold one): given no value in `.env.example`, marked in the docs,
   * and never echoed in a configuration error.
   */
  secret?: true;
  /** Still read, but replaced by another setting: commented out in `.env.example`. */
  deprecated?: true;
  parse: parse.SettingParser<T>;
}

const ALL: readonly SettingProcess[] = ['web', 'worker', 'cli'];
const SERVICE: readonly SettingProcess[] = ['web', 'worker'];
const WEB: readonly SettingProcess[] = ['web'];
const WORKER: readonly SettingProcess[] = ['worker'];

const setting = <T>(s: Setting<T>): Setting<T> => s;

/**
 * Every environment variable the service reads, declared once: config.ts parses them with these
 * parsers, and `npm run docs:settings` writes `.env.example` and the table of docs/configuration.md
 * from them (in this order).
 */
export const SETTINGS = {
  NODE_ENV: setting({
    default: 'development',
    help: 'development, test or production',
    processes: ALL,
    parse: parse.oneOf(['development', 'test', 'production'] as const),
  }),
  PORT: setting({
    default: '3000',
    help: 'HTTP port of the web process (0 picks a free one)',
    processes: WEB,
    parse: parse.integer(0, 65535),
  }),
  HOST: setting({
    default: '0.0.0.0',
    help: 'interface the web process listens on',
    processes: WEB,
    parse: parse.text,
  }),
  DATABASE_URL: setting({
    default: '',
    help: '`postgres://` URL; empty starts the embedded PostgreSQL under `DATA_DIR` (required in production)',
    processes: ALL,
    secret: true,
    parse: parse.postgresUrl,
  }),
  DATABASE_POOL_MAX: setting({
    default: '10',
    help: 'connections per process',
    processes: ALL,
    parse: parse.integer(1, 1000),
  }),
  APP_KEY: setting({
    default: '',
    help: '`base64:<32 bytes>` or 64 hex chars; required in production, generated into `DATA_DIR/app-key` locally',
    processes: ALL,
    secret: true,
    parse: parse.appKey,
  }),
  PUBLIC_BASE_URL: setting({
    default: '',
    help: 'external URL of the API (links, OpenAPI servers)',
    processes: SERVICE,
    parse: parse.httpUrl(),
  }),
  CORS_ORIGINS: setting({
    default: '',
    help: 'comma-separated browser origins allowed to call the API with credentials',
    processes: WEB,
    parse: parse.origins,
  }),
  LOG_LEVEL: setting({
    default: 'info',
    help: 'fatal, error, warn, info, debug, trace or silent',
    processes: ALL,
    parse: parse.oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  }),
  JSON_BODY_LIMIT: setting({
    default: '1mb',
    help: 'largest JSON body accepted (413 beyond)',
    processes: WEB,
    parse: parse.byteSize,
  }),
  WORKER_CONCURRENCY: setting({
    default: '4',
    help: 'jobs worked at once per queue in one worker process',
    processes: WORKER,
    parse: parse.integer(1, 100),
  }),
  EMBEDDED_PG_PORT: setting({
    default: '54329',
    help: 'port of the embedded PostgreSQL (when `DATABASE_URL` is empty)',
    processes: ALL,
    parse: parse.integer(1, 65535),
  }),
  DATA_DIR: setting({
    default: '.data',
    help: 'local state: embedded database, generated `APP_KEY`, mail log',
    processes: ALL,
    parse: parse.text,
  }),
  TRUSTED_PROXY_HOPS: setting({
    default: '0',
    help: 'reverse proxies in front of the web process that append to `X-Forwarded-For`; the client IP is the N-th address from the right (`0`: no proxy is trusted, the socket peer is the client)',
    processes: WEB,
    parse: parse.integer(0, 10),
  }),
  TRUST_PROXY: setting({
    default: 'false',
    help: 'deprecated: `true` means `TRUSTED_PROXY_HOPS=1` (a warning is logged); contradicting `TRUSTED_PROXY_HOPS=0` is refused',
    processes: WEB,
    deprecated: true,
    parse: parse.boolean,
  }),
  ENABLE_SIMULATORS: setting({
    default: 'false',
    help: '`true` runs the Google sign-in, KYC and production e-invoicing simulators (local only; refused in production)',
    processes: SERVICE,
    parse: parse.boolean,
  }),
  ALLOW_PRIVATE_URLS: setting({
    default: 'false',
    help: '`true` allows http and private addresses for outbound calls (local only; refused in production)',
    processes: SERVICE,
    parse: parse.boolean,
  }),
  WEBHOOK_RETRY_SCHEDULE: setting({
    default: DEFAULT_WEBHOOK_RETRY_SCHEDULE.join(','),
    help: 'seconds before each webhook retry, comma-separated, ±10 % jitter (default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h)',
    processes: SERVICE,
    parse: parse.secondsList,
  }),
  DATABASE_PREPARED_STATEMENTS: setting({
    default: 'true',
    help: '`false` runs every query unnamed: for a pooler in transaction mode that cannot follow named prepared statements (PgBouncer before 1.21, or without `max_prepared_statements`); the hottest writes then plan on every run',
    processes: SERVICE,
    parse: parse.boolean,
  }),
  WORKER_SUPERVISE_SECONDS: setting({
    default: '60',
    help: 'how often a worker re-queues the jobs of a crashed worker (expired or without heartbeat)',
    processes: WORKER,
    parse: parse.integer(1, 3600),
  }),
  FINISHED_JOBS_KEEP_HOURS: setting({
    default: String(DEFAULT_FINISHED_JOBS_KEEP_HOURS),
    help: "hours a finished job stays in `pgboss.job` before pg-boss's maintenance deletes it (jobs that ran out of retries stay 30 days in their dead-letter queue); the job table's size at a steady load is about this many hours of jobs",
    processes: WORKER,
    parse: parse.integer(1, 720),
  }),
  QUEUE_ANALYZE_SECONDS: setting({
    default: '10',
    help: "how often a worker (at its start, then at this interval) checks the planner statistics of pg-boss's job tables and analyzes those autovacuum's rule calls stale (one worker at a time); without them completing a batch walks the queue's whole table. `0` leaves it to autovacuum",
    processes: WORKER,
    parse: parse.integer(0, 3600),
  }),
  RATE_LIMIT_SCALE: setting({
    default: '1',
    help: 'multiplies every rate limit; `0` turns rate limiting off (load tests; refused in production)',
    processes: WEB,
    parse: parse.scale,
  }),
  RATE_LIMITS: setting({
    default: '',
    help: 'JSON over the default limits, e.g. `{"api_production":{"per_minute":120}}`',
    processes: WEB,
    parse: parse.rateLimits,
  }),
  RATE_LIMIT_OVERRIDES: setting({
    default: '',
    help: 'JSON limits per identity (`key:<id>`, `user:<id>`, `tenant:<id>`, `ip:<address>`), e.g. `{"ip:203.0.113.7":{"per_minute":10}}`',
    processes: WEB,
    parse: parse.rateLimitOverrides,
  }),
  SMTP_URL: setting({
    default: '',
    help: '`smtp(s)://user:pass@host:port` for outgoing mail; empty writes mail to `MAIL_LOG` (required in production)',
    processes: SERVICE,
    secret: true,
    parse: parse.smtpUrl,
  }),
  MAIL_FROM: setting({
    default: 'E-invoicing <no-reply@localhost>',
    help: 'sender of outgoing mail',
    processes: SERVICE,
    parse: parse.text,
  }),
  MAIL_LOG: setting({
    default: '',
    shownDefault: 'DATA_DIR/mail.log',
    help: 'file the readable local mail log is appended to when `SMTP_URL` is empty',
    processes: SERVICE,
    parse: parse.optionalText,
  }),
  GOOGLE_CLIENT_ID: setting({
    default: '',
    help: 'OAuth client id for Google sign-in; empty: the simulator with `ENABLE_SIMULATORS`, else no Google sign-in',
    processes: WEB,
    parse: parse.optionalText,
  }),
  GOOGLE_CLIENT_SECRET: setting({
    default: '',
    help: 'OAuth client secret for Google sign-in (set with `GOOGLE_CLIENT_ID`)',
    processes: WEB,
    secret: true,
    parse: parse.optionalText,
  }),
  GOOGLE_REDIRECT_URI: setting({
    default: '',
    shownDefault: 'PUBLIC_BASE_URL/api/v1/auth/google/callback',
    help: 'redirect URI registered with Google',
    processes: WEB,
    parse: parse.httpUrl(),
  }),
  TSA_URL: setting({
    default: '',
    help: 'RFC 3161 time-stamp authority for closing anchors; empty uses the built-in local authority (not qualified)',
    processes: SERVICE,
    parse: parse.httpUrl(),
  }),
  TSA_CA_CERT: setting({
    default: '',
    help: "PEM file (or PEM text, `\\n` for newlines) of the TSA's root certificate(s); required with `TSA_URL`",
    processes: SERVICE,
    parse: parse.pemCertificates,
  }),
  TSA_TIMEOUT_MS: setting({
    default: '10000',
    help: 'time-stamp request timeout; a slower TSA counts as down and is retried',
    processes: SERVICE,
    parse: parse.integer(100, 120_000),
  }),
  SUPERPDP_BASE_URL: setting({
    default: '',
    help: 'SuperPDP API (`https://api.superpdp.tech`) for production e-invoicing; empty: production invoices use the simulator with `ENABLE_SIMULATORS=true`, else their submission is refused (503)',
    processes: SERVICE,
    parse: parse.httpUrl({ trimSlashes: true }),
  }),
  SUPERPDP_TIMEOUT_MS: setting({
    default: '15000',
    help: 'timeout of one SuperPDP call; slower counts as unreachable and is retried',
    processes: SERVICE,
    parse: parse.integer(100, 120_000),
  }),
  TRANSMISSION_MAX_ATTEMPTS: setting({
    default: '12',
    help: 'upload attempts while the e-invoicing provider is unreachable (5 s doubling up to 20 min, about 2 h at 12) before the invoice is `failed`',
    processes: WORKER,
    parse: parse.integer(1, 21),
  }),
  SUPERPDP_CLIENT_ID: setting({
    default: '',
    help: "OAuth client id of this service's SuperPDP app (onboarding's authorization code flow); empty: production onboarding uses the simulator with `ENABLE_SIMULATORS`, else answers 503",
    processes: SERVICE,
    parse: parse.optionalText,
  }),
  SUPERPDP_CLIENT_SECRET: setting({
    default: '',
    help: 'OAuth client secret of the SuperPDP app (set with `SUPERPDP_CLIENT_ID`)',
    processes: SERVICE,
    secret: true,
    parse: parse.optionalText,
  }),
  SUPERPDP_REDIRECT_URI: setting({
    default: '',
    shownDefault: 'PUBLIC_BASE_URL/api/v1/onboarding/superpdp/callback',
    help: 'redirect URI registered on the SuperPDP app (the onboarding callback page)',
    processes: SERVICE,
    parse: parse.httpUrl(),
  }),
  OPENAPI_BASE_URL: setting({
    default: '',
    help: "one address serving both Openapi hosts of the signature provider (OAuth and eSignature paths; tests point it at a fake); empty: Openapi's own hosts, the `test.` ones in test mode",
    processes: SERVICE,
    parse: parse.httpUrl({ trimSlashes: true }),
  }),
  OPENAPI_TIMEOUT_MS: setting({
    default: '30000',
    help: 'timeout of one call to the signature provider (Openapi); slower counts as unreachable and is retried',
    processes: SERVICE,
    parse: parse.integer(100, 300_000),
  }),
  SIGNATURE_SUBMIT_MAX_ATTEMPTS: setting({
    default: '12',
    help: 'handovers of a production signature request while the signature provider (Openapi) is unreachable (30 s doubling up to 1 h, about 5 h at 12) before the request is `failed` and refunded',
    processes: WORKER,
    parse: parse.integer(1, 21),
  }),
  SUPERPDP_WEBHOOK_SECRET: setting({
    default: '',
    help: 'shared secret of the signed `/webhooks/superpdp*` sync triggers; empty refuses them (401)',
    processes: WEB,
    secret: true,
    parse: parse.optionalText,
  }),
  STRIPE_SECRET_KEY: setting({
    default: '',
    help: 'Stripe secret key (`sk_live_…`, `sk_test_…`) for production top-ups and auto-reloads; empty: production top-ups use the payment simulator with `ENABLE_SIMULATORS=true`, else are refused (503)',
    processes: SERVICE,
    secret: true,
    parse: parse.optionalText,
  }),
  STRIPE_API_BASE: setting({
    default: 'https://api.stripe.com',
    help: "Stripe's API host (tests point it elsewhere)",
    processes: SERVICE,
    parse: parse.httpUrl({ trimSlashes: true }),
  }),
  STRIPE_WEBHOOK_SECRET: setting({
    default: '',
    help: 'signing secret (`whsec_…`) of the `/webhooks/stripe` endpoint; empty refuses its calls (400)',
    processes: WEB,
    secret: true,
    parse: parse.optionalText,
  }),
  STRIPE_TIMEOUT_MS: setting({
    default: '15000',
    help: 'timeout of one Stripe call; slower counts as unreachable',
    processes: SERVICE,
    parse: parse.integer(100, 120_000),
  }),
  TOP_UP_RETURN_URL: setting({
    default: '',
    shownDefault: 'PUBLIC_BASE_URL/checkout/return',
    help: 'where the checkout sends the browser back after a top-up (`?status=success|cancel&session_id=…` is added)',
    processes: WEB,
    parse: parse.httpUrl(),
  }),
  SIMULATOR_STEP_SECONDS: setting({
    default: '2',
    help: "seconds between the e-invoicing simulator's lifecycle steps",
    processes: SERVICE,
    parse: parse.integer(0, 3600),
  }),
  FISCAL_ANCHOR_PENDING_HOURS: setting({
    default: '6',
    help: 'hours an anchor may stay pending before the fiscal compliance report counts it as a failure',
    processes: WEB,
    parse: parse.integer(1, 720),
  }),
  PUBLISHER_NAME: setting({
    default: '',
    help: 'legal name of the publisher (éditeur) that issues the fiscal attestations, and the seller of the monthly billing invoices',
    processes: ALL,
    parse: parse.optionalText,
  }),
  PUBLISHER_SIREN: setting({
    default: '',
    help: "the publisher's SIREN (9 digits, check digit verified), printed on the attestations and the billing invoices",
    processes: ALL,
    parse: parse.siren,
  }),
  PUBLISHER_ADDRESS: setting({
    default: '',
    help: "the publisher's registered address, printed on the attestations and the billing invoices (`street, postcode city`)",
    processes: ALL,
    parse: parse.optionalText,
  }),
  PUBLISHER_VAT_NUMBER: setting({
    default: '',
    shownDefault: 'FR + key + `PUBLISHER_SIREN`',
    help: "the publisher's intra-EU VAT number, the seller's VAT identifier (BT-31) on the billing invoices",
    processes: ALL,
    parse: parse.vatNumber,
  }),
  PUBLISHER_SIGNATORY: setting({
    default: '',
    help: 'who signs the attestations for the publisher: name and capacity (e.g. `Jeanne Martin, présidente`)',
    processes: WEB,
    parse: parse.optionalText,
  }),
  PUBLISHER_CONTACT: setting({
    default: '',
    help: 'an e-mail or URL where the administration can reach the publisher',
    processes: WEB,
    parse: parse.optionalText,
  }),
  SOFTWARE_NAME: setting({
    default: '',
    shownDefault: 'the package name',
    help: "the software's commercial name on the attestations",
    processes: WEB,
    parse: parse.optionalText,
  }),
};

export type SettingName = keyof typeof SETTINGS;

/** The parsed value of one setting. */
export type SettingValue<N extends SettingName> = (typeof SETTINGS)[N] extends Setting<infer T> ? T : never;
