import { readFileSync } from 'node:fs';
import { get } from 'node:http';
import { createDatabase } from '../domain/shared/database.js';
import { seedFiscalChain } from '../test/helpers/fiscal-entries.js';
import { seedPlatformTenant } from '../test/helpers/identities.js';
import { createBenchDatabase } from './bench-database.js';
import { log } from './log.js';
import { startWebServer } from './web-server.js';

export interface ForensicReport {
  /** Ledger entries in the archive (one chain, `BENCH_FORENSIC_ENTRIES`). */
  entries: number;
  /** Seconds to seed them (one INSERT … SELECT, hashes computed by PostgreSQL). */
  seed_s: number;
  /** Seconds from the request to the first byte of the body: the snapshot read, integrity check and spool. */
  first_byte_s: number;
  /** Seconds from the request to the last byte. */
  seconds: number;
  /** Bytes of the archive received, and the Content-Length announced (equal when all went well). */
  bytes: number;
  content_length: number | null;
  /** Resident memory of the web process (MiB, from /proc/<pid>/status): before the request, and its peak (VmHWM). */
  rss_before_mb: number | null;
  peak_rss_mb: number | null;
}

const mib = (kb: number | null) => (kb === null ? null : Math.round((kb / 1024) * 10) / 10);

/** VmRSS and VmHWM (the peak, what resourceUsage().maxRSS reports for one's own process) of a process, in KiB. */
function memoryOf(pid: number | undefined): { rss: number | null; peak: number | null } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => {
      const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
      return m ? Number(m[1]) : null;
    };
    return { rss: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return { rss: null, peak: null };
  }
}

/**
 * `forensic_export`: one chain of `entries` valid ledger entries, seeded in SQL on a database of
 * its own, exported by the real web process (`GET /api/v1/tenant/fiscal/forensic-export`) and read
 * by the bench as it streams (counted, not kept). The web process is fresh, so its peak RSS is the
 * export's, and stays flat however many entries the chain holds.
 */
export async function measureForensicExport(entries: number): Promise<ForensicReport> {
  const database = await createBenchDatabase();
  const owner = createDatabase(database.url, { poolMax: 2 });
  try {
    const tenant = await seedPlatformTenant(owner, { kyb: 'verified' });
    let started = performance.now();
    await seedFiscalChain(owner, { tenantId: tenant.tenantId, environment: 'sandbox' }, entries);
    await owner.raw('analyze fiscal_entries');
    const seedS = (performance.now() - started) / 1000;
    log(`forensic_export: ${entries} entries seeded in ${seedS.toFixed(1)} s`);
    const server = await startWebServer(database.url);
    try {
      const before = memoryOf(server.pid);
      started = performance.now();
      const received = await download(`${server.baseUrl}/api/v1/tenant/fiscal/forensic-export`, tenant.keys.sk_test);
      const seconds = (performance.now() - started) / 1000;
      const after = memoryOf(server.pid);
      return {
        entries,
        seed_s: round(seedS),
        first_byte_s: round((received.firstByteAt - started) / 1000),
        seconds: round(seconds),
        bytes: received.bytes,
        content_length: received.contentLength,
        rss_before_mb: mib(before.rss),
        peak_rss_mb: mib(after.peak),
      };
    } finally {
      await server.stop();
    }
  } finally {
    await owner.destroy();
    await database.drop();
  }
}

const round = (s: number) => Math.round(s * 100) / 100;

/** node:http rather than fetch: no headers timeout while the server reads the snapshot before its first byte. */
function download(
  url: string,
  key: string,
): Promise<{ bytes: number; contentLength: number | null; firstByteAt: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'X-Tenant-Key': key } }, (res) => {
      const firstByteAt = performance.now();
      if (res.statusCode !== 200) {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c.slice(0, 1000)));
        res.on('end', () => reject(new Error(`forensic export answered ${res.statusCode}: ${body.slice(0, 500)}`)));
        return;
      }
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('error', reject);
      res.on('end', () => {
        const length = res.headers['content-length'];
        resolve({ bytes, contentLength: length === undefined ? null : Number(length), firstByteAt });
      });
    }).on('error', reject);
  });
}
