import { randomUUID } from 'node:crypto';
import type { JsonSchema } from '../../schemas/registry.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON Schemas are read loosely
type Json = any;

/**
 * The smallest arguments a schema accepts: required fields only (or the first property when the
 * object needs at least one), ids fresh, formats and the SIRET pattern given a valid value.
 */
export function sample(schema: JsonSchema, name = ''): unknown {
  const s = schema as Json;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      const keys: string[] = s.required?.length
        ? s.required
        : s.minProperties
          ? Object.keys(s.properties).slice(0, 1)
          : [];
      return Object.fromEntries(keys.map((key) => [key, sample(s.properties[key], key)]));
    }
    case 'array':
      return [sample(s.items ?? {})];
    case 'integer':
    case 'number':
      return name === 'year' ? 2026 : Math.max(1, s.minimum ?? 1);
    case 'boolean':
      return false;
    default:
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'date') return '2026-01-15';
      if (s.format === 'email') return 'someone@example.com';
      if (s.pattern === '^[0-9]{14}$') return '73282932000074';
      return 'x';
  }
}
