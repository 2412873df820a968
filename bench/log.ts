/** Progress goes to stderr because stdout carries only the JSON report. */
export function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}
