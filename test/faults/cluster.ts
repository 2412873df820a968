import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canConnect } from '../../runtime/embedded-postgres.js';

/**
 * A PostgreSQL cluster of the fault suite's own, under /tmp on a free port, which the suite may stop
 * and restart (the shared test cluster on 5432 is never touched). It uses the machine's binaries
 * (`/usr/lib/postgresql/<newest>/bin`, or PG_BIN); as root, the server runs as the `postgres` user.
 */
export interface ThrowawayCluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  adminUrl: string;
  port: number;
  /** A crash of the server (`pg_ctl stop -m immediate`: no checkpoint, WAL replay on start), then a start. */
  restart(options?: { downMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

export function postgresBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error('no PostgreSQL binaries: set PG_BIN to the directory holding pg_ctl');
  return path.join(root, versions[0], 'bin');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = postgresBinDir();
  const root = mkdtempSync(path.join(tmpdir(), 'einvoice-faults-'));
  const dataDir = path.join(root, 'pg');
  const logFile = path.join(root, 'postgres.log');
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? postgresUserIds() : undefined;
  if (ids) chownSync(root, ids.uid, ids.gid);
  const run = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(path.join(bin, tool), args, {
        stdio: ['ignore', 'ignore', 'pipe'],
        cwd: root,
        ...(ids ?? {}),
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${tool} ${args.join(' ')} exited with ${code}: ${stderr}`)),
      );
    });
  await run('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--no-instructions',
  ]);
  const port = await freePort();
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  // fsync off: the suite crashes the server, never the machine, so the WAL in the page cache is replayed
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c max_connections=200`;
  const start = async () => {
    await run('pg_ctl', ['-D', dataDir, '-l', logFile, '-o', options, '-w', '-t', '60', 'start']);
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(await canConnect(adminUrl))) {
      if (Date.now() > deadline) throw new Error(`the throwaway PostgreSQL did not start: ${tail(logFile)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await start();
  let stopped = false;
  return {
    adminUrl,
    port,
    async restart({ downMs = 0 } = {}) {
      await run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await run('pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']).catch(() => {});
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}
