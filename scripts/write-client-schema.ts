/** `npm run client:generate`: rewrites examples/client/schema.d.ts from the OpenAPI document. */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENT_SCHEMA_PATH, renderClientSchema } from './client-schema.js';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
writeFileSync(resolve(REPO, CLIENT_SCHEMA_PATH), await renderClientSchema());
process.stdout.write(`wrote ${CLIENT_SCHEMA_PATH}\n`);
