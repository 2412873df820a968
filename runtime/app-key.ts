import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAppKey } from '../domain/shared/config.js';

/** A fresh APP_KEY value: 32 random bytes, base64. */
export const generateAppKey = (): string => `base64:${randomBytes(32).toString('base64')}`;

/**
 * The local setup's APP_KEY: generated once into DATA_DIR/app-key (mode 0600) and reused, so secrets
 * encrypted by one run can be read by the next. Production sets APP_KEY itself.
 */
export function localAppKey(dataDir: string): string {
  const file = path.resolve(dataDir, 'app-key');
  if (existsSync(file)) {
    const text = readFileSync(file, 'utf8').trim();
    if (!parseAppKey(text)) throw new Error(`${file} does not hold a valid APP_KEY; delete it to generate a new one`);
    return text;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const key = generateAppKey();
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}
