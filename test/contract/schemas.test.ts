import test from 'ava';
import { isAppError } from '../../domain/shared/app-error.js';
import { ALL_SCHEMAS } from '../../schemas/index.js';
import { createSchemaRegistry, type JsonSchema } from '../../schemas/registry.js';

/** Meta rules every schema follows (Unleash `meta-schema-rules.test.ts`). */
function propertiesWithoutDescription(schema: unknown, path: string, out: string[]): string[] {
  if (!schema || typeof schema !== 'object') return out;
  const node = schema as Record<string, unknown>;
  const properties = node.properties as Record<string, Record<string, unknown>> | undefined;
  for (const [name, property] of Object.entries(properties ?? {})) {
    if (typeof property.description !== 'string' || !property.description) out.push(`${path}.${name}`);
    propertiesWithoutDescription(property, `${path}.${name}`, out);
  }
  if (node.items) propertiesWithoutDescription(node.items, `${path}[]`, out);
  return out;
}

for (const schema of ALL_SCHEMAS as JsonSchema[]) {
  test(`schema ${schema.$id} follows the meta rules`, (t) => {
    t.regex(schema.$id ?? '', /^[A-Z][A-Za-z0-9]+$/, 'PascalCase $id');
    t.truthy(schema.type, 'has a type');
    t.truthy(schema.description, 'has a description');
    t.deepEqual(propertiesWithoutDescription(schema, schema.$id!, []), [], 'every property has a description');
    if (schema.$id?.endsWith('Input')) t.is(schema.additionalProperties, false, 'inputs refuse unknown properties');
  });
}

test('the registry compiles every schema and bundles refs for MCP clients', (t) => {
  const registry = createSchemaRegistry(ALL_SCHEMAS);
  for (const id of registry.ids()) {
    try {
      registry.parse(id, {});
    } catch (err) {
      t.true(isAppError(err), `${id} compiles (a validation error is fine, a schema error is not)`);
    }
  }
  const bundled = createSchemaRegistry([
    ...ALL_SCHEMAS,
    { $id: 'WrapperInput', type: 'object', properties: { price: { $ref: 'Pricing' } } },
  ]).bundled('WrapperInput');
  t.deepEqual((bundled.properties as Record<string, unknown>).price, { $ref: '#/$defs/Pricing' });
  t.truthy((bundled.$defs as Record<string, unknown>).Pricing);
});
