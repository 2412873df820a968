import { rmSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { canConnect, startEmbeddedPostgres } from '../../runtime/embedded-postgres.js';
import { migrateDatabase } from '../../runtime/migrate.js';
import { DEFAULT_ADMIN_URL, EMBEDDED_URL_FILE, TEMPLATE_DATABASE, withDatabase } from '../helpers/database-url.js';

/**
 * `pretest`: migrates one template database; every test file then clones it (CREATE DATABASE …
 * TEMPLATE …), as Unleash's database-init and graphile-worker's test helpers do. Uses
 * TEST_DATABASE_URL, else the local PostgreSQL on 127.0.0.1:5432, else an embedded one.
 */
async function main(): Promise<void> {
  rmSync(EMBEDDED_URL_FILE, { force: true });
  let adminUrl = process.env.TEST_DATABASE_URL ?? DEFAULT_ADMIN_URL;
  if (!process.env.TEST_DATABASE_URL && !(await canConnect(adminUrl, 2000))) {
    const local = await startEmbeddedPostgres('.data/test', 54330, 'postgres');
    adminUrl = local.url;
    writeFileSync(EMBEDDED_URL_FILE, `${adminUrl}\n`);
    process.stdout.write(`test database: embedded PostgreSQL on port 54330 (no server on 127.0.0.1:5432)\n`);
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${TEMPLATE_DATABASE} with (force)`);
    await admin.query(`create database ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  const result = await migrateDatabase(withDatabase(adminUrl, TEMPLATE_DATABASE));
  process.stdout.write(`test template: ${result.applied.length} migrations applied\n`);
}

main().catch((err) => {
  process.stderr.write(`test template setup failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
