import { parseArgs } from 'node:util';
import { buildContainer, resolveDeps, startDeps, stopDeps } from '../domain/container.js';
import { AppError } from '../domain/shared/app-error.js';
import { systemCaller } from '../domain/shared/caller.js';
import { createDatabase } from '../domain/shared/database.js';
import { asAppError, errorBody } from '../domain/shared/error-body.js';
import { execute } from '../domain/shared/execute.js';
import { generateAppKey } from '../runtime/app-key.js';
import { openEnvironment } from '../runtime/environment.js';
import { MIGRATIONS_DIR, migrateDatabase } from '../runtime/migrate.js';
import { COMMANDS } from './commands.js';
import { formatFailure, formatResult, OUTPUT_MODES, type OutputMode } from './output.js';

const HELP = [
  'einvoice: operator commands; JSON on stdout (or text with --output text). Uses DATABASE_URL, or the embedded database under DATA_DIR.',
  '',
  '  einvoice [--output json|text] <command>',
  '  einvoice migrate',
  '  einvoice key generate',
  ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
].join('\n');

/** A bad command line: reported as BAD_REQUEST, with exit code 2 and the usage. */
class UsageError extends AppError {
  constructor(message: string) {
    super('BAD_REQUEST', message);
  }
}

let mode: OutputMode = 'json';

const print = (value: unknown) => process.stdout.write(`${formatResult(value, mode)}\n`);

/** Takes the global `--output json|text` (or `--output=text`) out of the arguments. */
function takeOutputMode(argv: string[]): string[] {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = arg === '--output' ? argv[++i] : arg.startsWith('--output=') ? arg.slice('--output='.length) : null;
    if (value === null) {
      rest.push(arg);
      continue;
    }
    if (!OUTPUT_MODES.includes(value as OutputMode)) {
      throw new UsageError(`--output must be one of ${OUTPUT_MODES.join(', ')}`);
    }
    mode = value as OutputMode;
  }
  return rest;
}

async function main(args: string[]): Promise<number> {
  const argv = takeOutputMode(args);
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
    const problems = (err as { problems?: string[] } | null)?.problems;
    if (problems) {
      // A bad configuration, refused before anything ran: its message lists every problem.
      process.stderr.write(`${(err as Error).message}\n`);
      process.exit(78);
    }
    // The same error shape as the API's (domain/shared/error-body.ts); an unforeseen error prints
    // the generic INTERNAL_ERROR body, then its stack for the operator on this machine.
    process.stderr.write(`${formatFailure(errorBody(err), mode)}\n`);
    if (err instanceof UsageError) {
      process.stderr.write(`${HELP}\n`);
      process.exit(2);
    }
    if (!asAppError(err)) process.stderr.write(`\n${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
