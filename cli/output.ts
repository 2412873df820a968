import { type ErrorBody, errorLine } from '../domain/shared/error-body.js';

/**
 * How the CLI prints: `json` (the default, for scripts) or `text` (for a person at a terminal).
 * Both print the same values: a result on stdout, a failure's error shape on stderr.
 */
export type OutputMode = 'json' | 'text';

export const OUTPUT_MODES: readonly OutputMode[] = ['json', 'text'];

/** A result: pretty JSON, or one `path: value` line per leaf (`secret_keys.sandbox: sk_test_…`). */
export function formatResult(value: unknown, mode: OutputMode): string {
  if (mode === 'json') return JSON.stringify(value, null, 2);
  const lines: string[] = [];
  flatten(value, '', lines);
  return lines.join('\n');
}

/**
 * A failure, as the error shape of domain/shared/error-body.ts: `{"error": {message, error, code,
 * error_code, errors?}}` in JSON, `CODE: message` (then one line per invalid field) in text.
 */
export function formatFailure(body: ErrorBody, mode: OutputMode): string {
  return mode === 'json' ? JSON.stringify({ error: body }, null, 2) : `error ${errorLine(body)}`;
}

function flatten(value: unknown, path: string, lines: string[]): void {
  if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    for (const [key, item] of Object.entries(value)) flatten(item, path ? `${path}.${key}` : key, lines);
    return;
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  lines.push(path ? `${path}: ${text}` : text);
}
