import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { loadConfig } from '../../domain/shared/config.js';
import { SETTINGS } from '../../domain/shared/settings.js';
import { renderEnvExample, renderSettingsTable, TABLE_END, TABLE_START } from '../../scripts/settings-docs.js';

/** The repository root: this file runs from dist/test/contract/. */
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(resolve(REPO, file), 'utf8');
const REGENERATE = 'out of date: run `npm run docs:settings` and commit the result';

test('.env.example is what SETTINGS generates', (t) => {
  t.is(read('.env.example'), renderEnvExample(), REGENERATE);
});

test('the table of docs/configuration.md is what SETTINGS generates', (t) => {
  const docs = read('docs/configuration.md');
  const start = docs.indexOf(TABLE_START);
  const end = docs.indexOf(TABLE_END);
  t.true(start >= 0 && end > start, 'docs/configuration.md keeps the settings markers');
  t.is(docs.slice(start, end + TABLE_END.length), renderSettingsTable(), REGENERATE);
});

test('every setting is documented, and its default is accepted by its own parser', (t) => {
  for (const [name, setting] of Object.entries(SETTINGS)) {
    t.true(setting.help.length > 0 && setting.processes.length > 0, name);
    t.notThrows(() => loadConfig({ [name]: setting.default }), name);
  }
  t.notThrows(() => loadConfig({}));
});

test('every variable in .env.example is declared, and no secret is given a value there', (t) => {
  const assignments = [...read('.env.example').matchAll(/^(?:# )?([A-Z][A-Z0-9_]+)=(.*)$/gm)];
  t.deepEqual(
    assignments.map((m) => m[1]),
    Object.keys(SETTINGS),
  );
  for (const [, name, value] of assignments) {
    if (SETTINGS[name as keyof typeof SETTINGS].secret) t.is(value, '', name);
  }
});
