/**
 * Text PostgreSQL cannot store: U+0000 (refused in text and jsonb) and lone UTF-16 surrogates (no
 * UTF-8 form; jsonb refuses their escape). Input holding either is refused with a 422 before it
 * could reach the database as a 500.
 */

/** A lone (unpaired) UTF-16 surrogate: it has no UTF-8 form, and PostgreSQL's jsonb refuses its `\\u` escape. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why PostgreSQL cannot store this text, or null when it can. */
function unstorableReason(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(text)) return 'must be well-formed Unicode (no lone surrogate)';
  return null;
}

/**
 * The strings (and keys) that hold U+0000 or a lone surrogate, as `[dotted path, reason]`.
 * Iterative: a deeply nested value cannot overflow the stack here.
 */
export function unstorablePaths(value: unknown): [string, string][] {
  if (!holdsUnstorable(value)) return [];
  const found: [string, string][] = [];
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [node, path] = stack.pop()!;
    if (typeof node === 'string') {
      const reason = unstorableReason(node);
      if (reason) found.push([path || 'body', reason]);
      continue;
    }
    if (!node || typeof node !== 'object') continue;
    const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
    for (const [key, inner] of entries.reverse()) {
      const at = path ? `${path}.${key}` : key;
      const reason = unstorableReason(key);
      if (reason) found.push([at, reason]);
      else stack.push([inner, at]);
    }
  }
  return found;
}

/** Whether any string or key holds such text: the common answer, no, without building a path per value. */
function holdsUnstorable(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (unstorableReason(node)) return true;
      continue;
    }
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const inner of node) stack.push(inner);
      continue;
    }
    for (const key of Object.keys(node)) {
      if (unstorableReason(key)) return true;
      stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return false;
}
