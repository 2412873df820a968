import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';

/**
 * The module boundaries of .dependency-cruiser.cjs (run by `npm run lint:deps`) fail on a violation:
 * each case cruises a small tree in a temporary folder, laid out like the project, with the project's
 * own configuration. The real code is never touched.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

/** A context with its entry points, another one using it properly, and a kernel file. */
const LAWFUL: Record<string, string> = {
  'domain/billing/money.ts': 'export const cents = (n: number): number => n * 100;\n',
  'domain/billing/operations/get-balance.ts':
    "import { cents } from '../money.js';\nexport const getBalance = (): number => cents(1);\n",
  'domain/billing/operations/index.ts': "export { getBalance } from './get-balance.js';\n",
  'domain/billing/index.ts': "export { cents } from './money.js';\n",
  'domain/ledger/entry.ts': "import { cents } from '../billing/index.js';\nexport const entry = cents(2);\n",
  'domain/shared/clock.ts': 'export const now = (): number => Date.now();\n',
  'api/route.ts':
    "import { getBalance } from '../domain/billing/operations/index.js';\nimport { now } from '../domain/shared/clock.js';\nexport const route = [getBalance, now];\n",
};

async function cruise(extra: Record<string, string>): Promise<{ failed: boolean; output: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'boundaries-'));
  try {
    const files = { ...LAWFUL, ...extra, 'tsconfig.json': '{"compilerOptions":{"module":"NodeNext"}}\n' };
    for (const [name, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await writeFile(path.join(dir, name), text);
    }
    return await new Promise((resolve) => {
      execFile(
        process.execPath,
        [DEPCRUISE, '--config', CONFIG, 'domain', 'api'],
        { cwd: dir },
        (err, stdout, stderr) => resolve({ failed: err !== null, output: `${stdout}${stderr}` }),
      );
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('a tree that keeps the boundaries passes', async (t) => {
  const { failed, output } = await cruise({});
  t.false(failed, output);
});

test('another context importing a file behind the index fails', async (t) => {
  const { failed, output } = await cruise({
    'domain/ledger/entry.ts': "import { cents } from '../billing/money.js';\nexport const entry = cents(2);\n",
  });
  t.true(failed);
  t.regex(output, /context-through-index: domain\/ledger\/entry\.ts → domain\/billing\/money\.ts/);
});

test('an operation imported from its own file rather than operations/index.ts fails', async (t) => {
  const { failed, output } = await cruise({
    'api/route.ts':
      "import { getBalance } from '../domain/billing/operations/get-balance.js';\nexport const route = [getBalance];\n",
  });
  t.true(failed);
  t.regex(output, /outside-through-index: api\/route\.ts → domain\/billing\/operations\/get-balance\.ts/);
});

test('domain/shared importing a context fails, even through its index', async (t) => {
  const { failed, output } = await cruise({
    'domain/shared/clock.ts':
      "import { cents } from '../billing/index.js';\nexport const now = (): number => cents(0);\n",
  });
  t.true(failed);
  t.regex(output, /shared-imports-no-context: domain\/shared\/clock\.ts → domain\/billing\/index\.ts/);
});

test('an import cycle fails, a type-only one included', async (t) => {
  const { failed, output } = await cruise({
    'domain/ledger/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
    'domain/ledger/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
  });
  t.true(failed);
  t.regex(output, /no-circular: domain\/ledger\/(a|b)\.ts → /);
});
