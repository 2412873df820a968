import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import test from 'ava';
import { ConfigError, loadConfig } from '../../domain/shared/config.js';
import { WEB_MAIN, WORKER_MAIN } from '../helpers/processes.js';

const run = promisify(execFile);

/** A production configuration that boots: every required setting, nothing that fails open. */
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://app@db.internal:5432/einvoice',
  APP_KEY: `base64:${Buffer.alloc(32, 5).toString('base64')}`,
  SMTP_URL: 'smtp://mail.internal:587',
};

const UNSAFE = { ENABLE_SIMULATORS: 'true', ALLOW_PRIVATE_URLS: 'true', RATE_LIMIT_SCALE: '0', SMTP_URL: '' };

const REFUSALS = [
  'ENABLE_SIMULATORS: must not be true when NODE_ENV=production (the simulators approve anyone)',
  'ALLOW_PRIVATE_URLS: must not be true when NODE_ENV=production (outbound calls could reach private hosts)',
  'RATE_LIMIT_SCALE: must not be 0 when NODE_ENV=production (it turns rate limiting off)',
  'SMTP_URL: is required when NODE_ENV=production (without it, mail only reaches a local log file)',
];

test('production refuses each setting that fails open, one line each', (t) => {
  t.notThrows(() => loadConfig(PRODUCTION));
  const entries = Object.entries(UNSAFE);
  entries.forEach(([name, value], i) => {
    const err = t.throws(() => loadConfig({ ...PRODUCTION, [name]: value }), {
      instanceOf: ConfigError,
    }) as ConfigError;
    t.deepEqual(err.problems, [REFUSALS[i]], name);
  });
  const all = t.throws(() => loadConfig({ ...PRODUCTION, ...UNSAFE }), { instanceOf: ConfigError }) as ConfigError;
  t.deepEqual(all.problems, REFUSALS);
});

test('the same settings are accepted outside production', (t) => {
  const config = loadConfig({ ...UNSAFE, NODE_ENV: 'development' });
  t.like(config, { enableSimulators: true, allowPrivateUrls: true, rateLimitScale: 0, smtpUrl: null });
  t.false(loadConfig({}).enableSimulators, 'simulators are off unless asked for');
});

for (const [name, entry] of [
  ['web', WEB_MAIN],
  ['worker', WORKER_MAIN],
] as const) {
  test(`the built ${name} entry point refuses to boot: exit 78, one line per refusal`, async (t) => {
    const err = await t.throwsAsync(
      run(process.execPath, [entry], { env: { PATH: process.env.PATH ?? '', ...PRODUCTION, ...UNSAFE } }),
    );
    const failed = err as Error & { code: number; stderr: string };
    t.is(failed.code, 78);
    const lines = failed.stderr.trim().split('\n');
    t.is(lines[0], 'Invalid configuration:');
    t.deepEqual(
      lines.slice(1),
      REFUSALS.map((r) => `  - ${r}`),
    );
  });
}
