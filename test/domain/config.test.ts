import test from 'ava';
import { ConfigError, loadConfig } from '../../domain/shared/config.js';

test('defaults give a local configuration on the embedded database', (t) => {
  const config = loadConfig({});
  t.like(config, { nodeEnv: 'development', port: 3000, databaseUrl: null, jsonBodyLimit: '1mb', corsOrigins: [] });
});

test('every bad variable gets its own clear message, all at once', (t) => {
  const err = t.throws(
    () =>
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://user:secret@db/x',
        LOG_LEVEL: 'loud',
        CORS_ORIGINS: 'https://ok.example.com,not-an-origin',
        JSON_BODY_LIMIT: 'huge',
        TRUST_PROXY: 'maybe',
        APP_KEY: 'short',
      }),
    { instanceOf: ConfigError },
  ) as ConfigError;
  t.deepEqual(err.problems, [
    'DATABASE_URL: must be a postgres:// or postgresql:// URL (got "mysql://user:***@db/x")',
    'APP_KEY: must be base64:<32 bytes> or 64 hexadecimal characters',
    'CORS_ORIGINS: each entry must be an origin such as https://app.example.com (got "not-an-origin")',
    'JSON_BODY_LIMIT: must be a size such as 1mb or 512kb (got "huge")',
    'PORT: must be an integer from 0 to 65535 (got "eighty")',
    'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    'TRUST_PROXY: must be true or false (got "maybe")',
  ]);
  t.false(err.message.includes('secret'), 'a database password never appears in the message');
});

test('production requires APP_KEY, DATABASE_URL and SMTP_URL', (t) => {
  const err = t.throws(() => loadConfig({ NODE_ENV: 'production' }), { instanceOf: ConfigError }) as ConfigError;
  t.is(err.problems.length, 3);
  t.regex(err.problems[0], /^APP_KEY: is required/);
  t.regex(err.problems[1], /^DATABASE_URL: is required/);
  t.regex(err.problems[2], /^SMTP_URL: is required/);
  const ok = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://app@db.internal:5432/einvoice',
    APP_KEY: `base64:${Buffer.alloc(32, 1).toString('base64')}`,
    SMTP_URL: 'smtp://mail.internal:587',
  });
  t.is(ok.appKey?.length, 32);
});

test('rate limits: the specification table by default, RATE_LIMITS over it, overrides per identity', (t) => {
  const defaults = loadConfig({});
  t.deepEqual(defaults.rateLimits.api_production, { per_minute: 60 });
  t.deepEqual(defaults.rateLimits.tenant_sandbox, { per_minute: 30, per_hour: 500 });
  t.deepEqual(defaults.rateLimits.anonymous, { per_minute: 120 });
  t.deepEqual(defaults.rateLimits.credentials, { per_minute: 10, per_hour: 100 });
  t.deepEqual(defaults.rateLimits.tenant_registration, { per_minute: 10, per_hour: 100 });
  t.is(defaults.rateLimitScale, 1);
  const tuned = loadConfig({
    RATE_LIMITS: '{"api_production":{"per_minute":120}}',
    RATE_LIMIT_OVERRIDES: '{"user:3f1c":{"per_minute":600},"ip:203.0.113.7":{"per_hour":10}}',
    RATE_LIMIT_SCALE: '0',
  });
  t.deepEqual(tuned.rateLimits.api_production, { per_minute: 120 });
  t.deepEqual(tuned.rateLimits.api_sandbox, { per_minute: 1000 });
  t.deepEqual(tuned.rateLimitOverrides['ip:203.0.113.7'], { per_hour: 10 });
  t.is(tuned.rateLimitScale, 0);

  const err = t.throws(
    () =>
      loadConfig({
        RATE_LIMITS: '{"api_staging":{"per_minute":1},"mcp":{"per_day":3}}',
        RATE_LIMIT_OVERRIDES: '{"bob":{"per_minute":1}}',
        RATE_LIMIT_SCALE: '-1',
      }),
    { instanceOf: ConfigError },
  ) as ConfigError;
  t.deepEqual(err.problems, [
    'RATE_LIMIT_SCALE: must be a number from 0 to 1000 (got "-1")',
    'RATE_LIMITS: mcp must be {"per_minute": n, "per_hour": n} with positive integers',
    'RATE_LIMITS: unknown limit "api_staging" (known: api_production, api_sandbox, tenant_production, tenant_sandbox, onboarding, exchange, mcp, anonymous, credentials, tenant_registration)',
    'RATE_LIMIT_OVERRIDES: identity "bob" must be key:, user:, tenant: or ip: followed by a value',
  ]);
});

test('a secret is never echoed in a configuration error', (t) => {
  const err = t.throws(() => loadConfig({ DATABASE_URL: 'postgres://app:hunter2@db/x y' }), {
    instanceOf: ConfigError,
  }) as ConfigError;
  t.deepEqual(err.problems, [
    'DATABASE_URL: must be a postgres:// or postgresql:// URL (got "postgres://app:***@db/x y")',
  ]);
  const smtp = t.throws(() => loadConfig({ SMTP_URL: 'http://user:hunter2@mail' }), { instanceOf: ConfigError });
  t.false(smtp?.message.includes('hunter2'));
});
