import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The software this service is: its package name and version, as attestations state them. */
export interface SoftwareIdentity {
  name: string;
  version: string;
}

let cached: SoftwareIdentity | undefined;

/**
 * Read once from the project's package.json, found by walking up from this module (it runs from
 * `dist/`, one level further down than its source): the version the attestations name is the one
 * deployed, never a copy that could drift.
 */
export function softwareIdentity(): SoftwareIdentity {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name && pkg.version) {
        cached = { name: pkg.name, version: pkg.version };
        return cached;
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above domain/shared/software.ts');
    dir = parent;
  }
}
