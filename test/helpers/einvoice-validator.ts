import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The official offline e-invoice validator beside the repository (`../shared/einvoice-validator/validate`,
 * or EINVOICE_VALIDATOR, which .ci/run sets). It installs poppler and qpdf itself on first use, so
 * run it before the PDF tools.
 */
export function validatorPath(): string {
  const root = fileURLToPath(new URL('../../../', import.meta.url)); // dist/test/helpers → repository
  const candidates = [process.env.EINVOICE_VALIDATOR, `${root}../shared/einvoice-validator/validate`];
  const found = candidates.find((path) => path && existsSync(path));
  if (!found) throw new Error(`einvoice validator not found (tried ${candidates.filter(Boolean).join(', ')})`);
  return found;
}

/** A finding of the validator's JSON report. */
export interface ValidatorFinding {
  rule: string;
  message: string;
  location?: string;
  check?: string;
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
  const result = spawnSync(validatorPath(), ['--json', ...paths], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.error) throw result.error;
  const { status, stdout, stderr } = result;
  if (status !== 0 && status !== 1) throw new Error(`validator failed (exit ${status}): ${stderr}`);
  return JSON.parse(stdout);
}
