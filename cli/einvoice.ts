import { parseArgs } from 'node:util';
import { buildContainer, resolveDeps, startDeps, stopDeps } from '../domain/container.js';
import { isAppError } from '../domain/shared/app-error.js';
import { systemCaller } from '../domain/shared/caller.js';
import { createDatabase } from '../domain/shared/database.js';
import { execute } from '../domain/shared/execute.js';
import { generateAppKey } from '../runtime/app-key.js';
import { openEnvironment } from '../runtime/environment.js';
import { MIGRATIONS_DIR, migrateDatabase } from '../runtime/migrate.js';
import { COMMANDS } from './commands.js';

const HELP = [
  'einvoice: operator commands; JSON on stdout. Uses DATABASE_URL, or the embedded database under DATA_DIR.',
  '',
  '  einvoice migrate',
  '  einvoice key generate',
  ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
].join('\n');

class UsageError extends Error {}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);

async function main(argv: string[]): Promise<number> {
  const [group, action, ...rest] = argv;
  if (!group || group === 'help' || group === '--help' || group === '-h') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (group === 'key' && action === 'generate') {
    print({ app_key: generateAppKey() });
    return 0;
  }
  const command = group === 'migrate' ? null : COMMANDS[`${group} ${action}`];
  if (group !== 'migrate' && !command) throw new UsageError(`unknown command "${argv.join(' ')}"`);

  let flags: Record<string, string | boolean | undefined> = {};
  if (command) {
    try {
      flags = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }).values;
    } catch (err) {
      throw new UsageError(`${(err as Error).message}\nusage: ${command.usage}`);
    }
  }

  const runtime = await openEnvironment();
  try {
    const url = runtime.config.databaseUrl!;
    if (!command) {
      print(await migrateDatabase(url));
      return 0;
    }
    // The embedded database is a local setup: bring it up to date as `npm start` would.
    if (runtime.embedded) await migrateDatabase(url);
    else await assertMigrated(url);
    const deps = resolveDeps(buildContainer({ ...runtime.config, logLevel: 'warn' }, { role: 'web' }));
    await startDeps(deps);
    try {
      print(await execute(command.operation, command.input(flags), systemCaller(), deps, { coerce: true }));
      return 0;
    } finally {
      await stopDeps(deps, { graceful: false, timeout: 2000 });
    }
  } finally {
    await runtime.stop();
  }
}

async function assertMigrated(url: string): Promise<void> {
  const db = createDatabase(url, { poolMax: 1, applicationName: 'einvoice-cli' });
  try {
    const [, pending] = (await db.migrate.list({ directory: MIGRATIONS_DIR, loadExtensions: ['.js'] })) as [
      unknown[],
      unknown[],
    ];
    if (pending.length)
      throw new UsageError(`the database has ${pending.length} pending migrations: run \`npx einvoice migrate\``);
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`${JSON.stringify({ error: { code: 'USAGE', message: err.message } }, null, 2)}\n${HELP}\n`);
      process.exit(2);
    }
    if (isAppError(err)) {
      const error = { code: err.code, message: err.message, ...(err.extra.fields ? { errors: err.extra.fields } : {}) };
      process.stderr.write(`${JSON.stringify({ error }, null, 2)}\n`);
      process.exit(1);
    }
    const problems = (err as { problems?: string[] }).problems;
    process.stderr.write(`${problems ? (err as Error).message : ((err as Error)?.stack ?? String(err))}\n`);
    process.exit(problems ? 78 : 1);
  },
);
