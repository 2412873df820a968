import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { canConnect, startEmbeddedPostgres } from '../runtime/embedded-postgres.js';
import { migrateDatabase } from '../runtime/migrate.js';
import { adminDatabaseUrl, withDatabase } from '../test/helpers/database-url.js';
import { log } from './log.js';

export interface BenchDatabase {
  url: string;
  /** The cluster's admin URL (the CPU meter reads the server's data directory through it). */
  adminUrl: string;
  drop(): Promise<void>;
}

/** Its own port and directory so a developer's `npm start` cluster and the test cluster are left alone. */
const EMBEDDED_DIR = '.data/bench';
const EMBEDDED_PORT = 54331;

/** A uniquely named, migrated database, so runs never see each other's rows or a half-migrated schema. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const cluster = await openCluster();
  const name = `einvoice_bench_${Date.now()}_${randomBytes(3).toString('hex')}`;
  try {
    await adminQuery(cluster.adminUrl, `create database "${name}"`);
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  const url = withDatabase(cluster.adminUrl, name);
  const drop = async () => {
    try {
      await adminQuery(cluster.adminUrl, `drop database if exists "${name}" with (force)`);
    } finally {
      await cluster.stop();
    }
  };
  try {
    log(`migrating ${name}`);
    await migrateDatabase(url);
  } catch (err) {
    await drop();
    throw err;
  }
  return { url, adminUrl: cluster.adminUrl, drop };
}

interface Cluster {
  adminUrl: string;
  stop(): Promise<void>;
}

async function openCluster(): Promise<Cluster> {
  const explicit = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  const adminUrl = process.env.BENCH_DATABASE_URL || adminDatabaseUrl();
  if (explicit || (await canConnect(adminUrl))) return { adminUrl, stop: async () => {} };
  log(`no PostgreSQL at ${redact(adminUrl)}, starting an embedded one on port ${EMBEDDED_PORT}`);
  const local = await startEmbeddedPostgres(EMBEDDED_DIR, EMBEDDED_PORT, 'postgres');
  return { adminUrl: local.url, stop: () => local.stop() };
}

async function adminQuery(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function redact(url: string): string {
  return url.replace(/:[^:@/]*@/, ':***@');
}
