import type { JsonSchema } from '../../../schemas/registry.js';

/** Every `pattern` (and `propertyNames` pattern) of the registered schemas, once each. */
export function schemaPatterns(schemas: readonly JsonSchema[]): string[] {
  const found = new Set<string>();
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'pattern' && typeof value === 'string') found.add(value);
      else walk(value);
    }
  };
  walk(schemas);
  return [...found];
}
