/** `npm run docs:settings`: rewrites .env.example and the table of docs/configuration.md from SETTINGS. */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderEnvExample, withSettingsTable } from './settings-docs.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const docs = resolve(REPO, 'docs/configuration.md');
writeFileSync(resolve(REPO, '.env.example'), renderEnvExample());
writeFileSync(docs, withSettingsTable(readFileSync(docs, 'utf8')));
process.stdout.write('wrote .env.example and the settings table of docs/configuration.md\n');
