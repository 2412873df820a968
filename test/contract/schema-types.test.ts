import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import test from 'ava';
import type { Operation } from '../../domain/shared/operation.js';
import { ALL_SCHEMAS } from '../../schemas/index.js';
import { CHECKED_OPERATIONS } from '../types/operation-types.js';

/**
 * The types of inputs and outputs come from the JSON Schemas. The compile-time checks live in
 * test/types/ (compiled by `npm run build`); these tests keep them complete: every operation is in
 * the checked table, and no schema has a hand-written TypeScript twin.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url)); // dist/test/contract → repository
const dist = path.join(root, 'dist');
const ids = new Set(ALL_SCHEMAS.map((schema) => schema.$id!));

function filesUnder(dir: string, ext: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(ext))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

const isOperation = (value: unknown): value is Operation =>
  typeof value === 'object' &&
  value !== null &&
  ((value as Operation).kind === 'command' || (value as Operation).kind === 'query') &&
  typeof (value as Operation).run === 'function';

/** Every operation the domain exports, by export name (modules that define one are imported). */
async function domainOperations(): Promise<Map<string, Operation>> {
  const found = new Map<string, Operation>();
  for (const file of filesUnder(path.join(dist, 'domain'), '.js')) {
    const source = readFileSync(file, 'utf8');
    if (!/define(Command|Query)\(/.test(source)) continue;
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) if (isOperation(value)) found.set(name, value);
  }
  return found;
}

test('every operation is in the compile-time table, with the schema ids it declares', async (t) => {
  const operations = await domainOperations();
  t.true(operations.size > 100, `found the domain's operations (${operations.size})`);
  const checked = CHECKED_OPERATIONS as Record<string, readonly [Operation, string, string]>;
  const missing = [...operations.keys()].filter((name) => !(name in checked));
  t.deepEqual(missing, [], 'operations missing from test/types/operation-types.ts CHECKED_OPERATIONS');
  for (const [name, [operation, input, output]] of Object.entries(checked)) {
    t.true(operations.get(name) === operation, `${name} is the domain's export of that name`);
    t.deepEqual([input, output], [operation.input, operation.output], `${name}: schema ids as declared`);
  }
});

test('schemas/*.ts type every schema with FromSchema, never a hand-written twin', (t) => {
  const handWritten: string[] = [];
  for (const file of filesUnder(path.join(root, 'schemas'), '.ts')) {
    const source = readFileSync(file, 'utf8');
    for (const [, name] of source.matchAll(/^export interface (\w+)/gm)) {
      if (ids.has(name)) handWritten.push(`${path.basename(file)}: interface ${name}`);
    }
    for (const [, name, definition] of source.matchAll(/^export type (\w+)(?:<[^=]*>)? =\s*([^;]*);/gm)) {
      if (ids.has(name) && !definition.startsWith('FromSchema<') && !KEPT_BY_HAND.has(name)) {
        handWritten.push(`${path.basename(file)}: type ${name}`);
      }
    }
  }
  t.deepEqual(handWritten, []);
});

test('every type named after a schema is compared with the registry-derived one', (t) => {
  const table = readFileSync(path.join(root, 'test/types/named-schema-types.ts'), 'utf8');
  const handKept = readFileSync(path.join(root, 'test/types/hand-kept-types.ts'), 'utf8');
  const unchecked: string[] = [];
  for (const file of filesUnder(path.join(root, 'schemas'), '.ts')) {
    const source = readFileSync(file, 'utf8');
    for (const [, name] of source.matchAll(/^export type (\w+)(?:<[^=]*>)? =/gm)) {
      if (!ids.has(name)) continue;
      const listed = new RegExp(`^  ${name}: Equals<`, 'm').test(table) || handKept.includes(`SchemaType<'${name}'>`);
      if (!listed) unchecked.push(`${path.basename(file)}: ${name}`);
    }
  }
  t.deepEqual(unchecked, [], 'add them to test/types/named-schema-types.ts');
});

/** Written by hand on purpose, each checked against FromSchema in test/types/hand-kept-types.ts. */
const KEPT_BY_HAND = new Set(['EmptyInput']);
