import { AppError } from '../domain/shared/app-error.js';

/** Deeper than any input of the API: refused before cloning and validating walk it recursively. */
export const MAX_DEPTH = 64;

/**
 * The top-level field (or `body`) under which the input nests arrays and objects more than
 * MAX_DEPTH levels deep, else null. Iterative: a 10,000-level body cannot overflow the stack here.
 */
function tooDeepField(data: unknown): string | null {
  if (!data || typeof data !== 'object') return null;
  const top = Array.isArray(data) ? [['body', data] as const] : Object.entries(data);
  for (const [field, value] of top) {
    const stack: [unknown, number][] = [[value, 2]];
    while (stack.length) {
      const [node, depth] = stack.pop()!;
      if (!node || typeof node !== 'object') continue;
      if (depth > MAX_DEPTH) return String(field);
      for (const inner of Object.values(node)) stack.push([inner, depth + 1]);
    }
  }
  return null;
}

/** Inputs known to be within MAX_DEPTH: a request's input is walked once, not again when it is parsed. */
const withinDepth = new WeakSet<object>();

/** Refuses (422) input nested deeper than MAX_DEPTH, naming the top-level field that is. */
export function assertNotTooDeep(data: unknown): void {
  if (data && typeof data === 'object' && withinDepth.has(data)) return;
  const field = tooDeepField(data);
  if (field !== null) throw AppError.validation({ [field]: [`must not be nested more than ${MAX_DEPTH} levels deep`] });
}

/**
 * Records that `input` passed `assertNotTooDeep` already: its fields are those of a checked body
 * and flat strings (query and path parameters), so the check would pass again, naming nothing new.
 */
export function markNotTooDeep(input: object): void {
  withinDepth.add(input);
}
