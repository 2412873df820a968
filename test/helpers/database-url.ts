import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where the test cluster's admin URL is kept when the pretest step had to start an embedded one. */
export const EMBEDDED_URL_FILE = path.resolve('.data', 'test-database-url');
/** One template per checkout, so that two working copies can run their suites side by side. */
export const TEMPLATE_DATABASE = `einvoice_test_template_${createHash('sha256').update(process.cwd()).digest('hex').slice(0, 8)}`;
export const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** TEST_DATABASE_URL, else the embedded cluster the pretest step started, else the local PostgreSQL. */
export function adminDatabaseUrl(): string {
  if (process.env.TEST_DATABASE_URL) return process.env.TEST_DATABASE_URL;
  if (existsSync(EMBEDDED_URL_FILE)) return readFileSync(EMBEDDED_URL_FILE, 'utf8').trim();
  return DEFAULT_ADMIN_URL;
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
