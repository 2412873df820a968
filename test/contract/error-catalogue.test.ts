import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import test from 'ava';
import { ROUTES } from '../../api/routes/index.js';
import { ERROR_CATALOGUE, ERROR_CODES, type ErrorCode, errorWordOf } from '../../domain/shared/error-codes.js';
import { ALL_SCHEMAS } from '../../schemas/index.js';
import { buildOpenApiDocument } from '../../schemas/openapi.js';
import { createSchemaRegistry } from '../../schemas/registry.js';

const SOURCE_DIRS = ['api', 'cli', 'domain', 'runtime', 'schemas', 'workers'];

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/** Every `AppError('CODE'` / `new AppError(\n 'CODE'` written in the source, with where it is. */
async function thrownCodes(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const dir of SOURCE_DIRS) {
    for (const file of await sourceFiles(path.resolve(dir))) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(/\bAppError\(\s*['"`]([A-Za-z_]+)['"`]/g)) {
        found.set(match[1], path.relative(process.cwd(), file));
      }
    }
  }
  return found;
}

test('every code the source throws is declared in the catalogue', async (t) => {
  const thrown = await thrownCodes();
  t.true(thrown.size > 20, 'the scan finds the AppErrors of the code base');
  const undeclared = [...thrown].filter(([code]) => !Object.hasOwn(ERROR_CATALOGUE, code));
  t.deepEqual(undeclared, [], 'codes thrown but missing from domain/shared/error-codes.ts');
});

test('every catalogue entry is an upper snake code with an error status and a description', (t) => {
  t.is(new Set(ERROR_CODES).size, ERROR_CODES.length);
  for (const code of ERROR_CODES) {
    const entry = ERROR_CATALOGUE[code];
    t.regex(code, /^[A-Z][A-Z0-9_]*$/, code);
    t.true(entry.status >= 400 && entry.status <= 599, code);
    t.regex(entry.description, /\S.*\.$/, `${code} has a one-line description`);
    t.false(entry.description.includes('\n'), code);
    t.regex(errorWordOf(code), /^[a-z][a-z0-9_]*$/, code);
  }
  // The specification publishes the kill switch's `error` under its own spelling.
  t.is(errorWordOf('FISCAL_KILLSWITCH_ACTIVE'), 'fiscal_kill_switch_active');
  t.is(errorWordOf('NOT_FOUND'), 'not_found');
});

test("the OpenAPI document's error schema enumerates exactly the catalogue", (t) => {
  // biome-ignore lint/suspicious/noExplicitAny: the document is walked generically
  const doc: any = buildOpenApiDocument(ROUTES, createSchemaRegistry(ALL_SCHEMAS));
  const schema = doc.components.schemas.ErrorResponse;
  t.deepEqual(schema.properties.code.enum, ERROR_CODES);
  t.deepEqual(schema.properties.error_code.enum, ERROR_CODES);
  t.deepEqual(schema.required, ['message', 'error', 'code', 'error_code']);
  // Bulk results and transmission statuses report their per-item errors in the same schema.
  const bulkItem = doc.components.schemas.BulkCreateInvoicesResult.properties.results.items;
  t.is(bulkItem.properties.error.$ref, '#/components/schemas/ErrorResponse');
  t.deepEqual(doc.components.schemas.InvoiceTransmissionStatus.properties.error.anyOf, [
    { $ref: '#/components/schemas/ErrorResponse' },
    { type: 'null' },
  ]);
});

/** The table of docs/api/conventions.md, as the catalogue writes it. */
function catalogueTable(): string {
  const rows = ERROR_CODES.map((code: ErrorCode) => {
    const entry = ERROR_CATALOGUE[code];
    return `| \`${code}\` | ${entry.status} | ${entry.description.replaceAll('|', '\\|')} |`;
  });
  return ['| Code | HTTP | Meaning |', '|---|---|---|', ...rows].join('\n');
}

test('docs/api/conventions.md lists the catalogue as it is', async (t) => {
  const doc = await readFile(path.resolve('docs/api/conventions.md'), 'utf8');
  const expected = catalogueTable();
  t.true(doc.includes(expected), `replace the table under "Error codes" with:\n\n${expected}\n`);
});
