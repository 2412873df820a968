import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The command-line tools the PDF tests read their output with: poppler-utils (pdftotext, pdffonts,
 * pdfinfo, pdfdetach), qpdf, and the project's offline e-invoice validator beside the repository
 * (`../shared/einvoice-validator/validate`, or EINVOICE_VALIDATOR). The validator installs poppler
 * and qpdf itself on first use, so run it before the others.
 */
export function validatorPath(): string {
  const root = fileURLToPath(new URL('../../../', import.meta.url)); // dist/test/helpers → repository
  const candidates = [process.env.EINVOICE_VALIDATOR, `${root}../shared/einvoice-validator/validate`];
  const found = candidates.find((path) => path && existsSync(path));
  if (!found) throw new Error(`einvoice validator not found (tried ${candidates.filter(Boolean).join(', ')})`);
  return found;
}

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

/** A finding of the validator's JSON report. */
export interface ValidatorFinding {
  rule: string;
  message: string;
}

/** One file of the validator's `--json` report (shared/einvoice-validator/README.md). */
export interface ValidatorFile {
  file: string;
  type: string;
  profile: string | null;
  valid: boolean;
  errors: ValidatorFinding[];
  warnings: ValidatorFinding[];
  checks: { name: string }[];
  pdf?: {
    afRelationship?: string;
    embeddedSubtype?: string;
    pdfaOutputIntent?: boolean;
    pdfaid?: { part: string; conformance: string };
    xmp?: Record<string, string>;
  };
}

/** Validates every file in one call (the JVM start and Schematron compilation dominate). */
export function validateAll(paths: string[]): { valid: boolean; files: ValidatorFile[] } {
  const { status, stdout, stderr } = run(validatorPath(), ['--json', ...paths]);
  if (status !== 0 && status !== 1) throw new Error(`validator failed (exit ${status}): ${stderr}`);
  return JSON.parse(stdout);
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
