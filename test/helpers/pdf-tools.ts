import { spawnSync } from 'node:child_process';

/**
 * The command-line tools the PDF tests read their output with: poppler-utils and qpdf (installed by
 * the validator's first run, test/helpers/einvoice-validator.ts).
 */

/** Runs a command; its result whatever the exit status (the caller decides what a failure means). */
export function run(command: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Whether a program is on the PATH. */
export function hasCommand(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

/** The text poppler extracts, in content order (`-raw`), pages separated by form feeds. */
export function pdfText(path: string): string {
  const { status, stdout, stderr } = run('pdftotext', ['-raw', '-enc', 'UTF-8', path, '-']);
  if (status !== 0) throw new Error(`pdftotext ${path}: ${stderr}`);
  return stdout;
}

/** The `pdffonts` table as rows: name, type, encoding, embedded, subset, unicode. */
export function pdfFonts(path: string): { name: string; type: string; emb: string; sub: string; uni: string }[] {
  const { stdout } = run('pdffonts', [path]);
  return stdout
    .split('\n')
    .slice(2)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const cells = line.trim().split(/\s+/);
      const [emb, sub, uni] = cells.slice(-5, -2);
      return { name: cells[0], type: cells.slice(1, -6).join(' '), emb, sub, uni };
    });
}
