import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { adminDatabaseUrl, TEMPLATE_DATABASE, withDatabase } from './database-url.js';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template: one per test file, dropped after it. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `einvoice_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`create database ${name} template ${TEMPLATE_DATABASE}`));
  return {
    name,
    url: withDatabase(adminDatabaseUrl(), name),
    drop: () => admin((c) => c.query(`drop database if exists ${name} with (force)`)).then(() => {}),
  };
}
