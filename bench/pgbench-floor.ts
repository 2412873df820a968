import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The floor's own JSON: transactions per second per tenant mix and client count. */
export interface FloorFigures {
  one_tenant: { c8: number; c50: number };
  many_tenants: { c8: number; c50: number };
}

export interface FloorReport {
  /** run.sh's output, or null when it could not run (`skipped` says why). */
  figures: FloorFigures | null;
  skipped: string | null;
  script: string | null;
  seconds_per_run: number;
  /** max(one_tenant.c8, one_tenant.c50): the yardstick of invoice_create. */
  best_one_tenant_tps: number | null;
  /** invoice_create requests/s of the same run ÷ best_one_tenant_tps (target ≥ 1.0). */
  invoice_create_ratio: number | null;
  /** invoice_create_many_tenants requests/s of the same run ÷ the floor's many_tenants.c50 (same clients). */
  invoice_create_many_tenants_ratio: number | null;
}

/** The repository root: dist/bench/ is two levels below it. */
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The floor's run.sh, found as .ci/run finds the validator: PGBENCH_FLOOR (the script or its directory),
 * else the shared tree beside the repository (../shared).
 */
export function findFloorScript(): string | null {
  const candidates = [process.env.PGBENCH_FLOOR, resolve(REPO, '../shared/bench/pgbench-floor/run.sh')];
  for (const candidate of candidates) {
    if (!candidate) continue;
    const script = candidate.endsWith('.sh') ? candidate : resolve(candidate, 'run.sh');
    try {
      accessSync(script, constants.R_OK);
      return script;
    } catch {}
  }
  return null;
}

const onPath = (command: string): boolean => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/**
 * Runs the floor on the bench's cluster (it creates and drops its own database there), bounded:
 * four pgbench runs of `secondsPerRun` each, plus a minute for its setup, else it is stopped.
 */
export async function runFloor(adminUrl: string, secondsPerRun: number): Promise<FloorReport> {
  const report = (fields: Partial<FloorReport>): FloorReport => ({
    figures: null,
    skipped: null,
    script: null,
    seconds_per_run: secondsPerRun,
    best_one_tenant_tps: null,
    invoice_create_ratio: null,
    invoice_create_many_tenants_ratio: null,
    ...fields,
  });
  const script = findFloorScript();
  if (!script) return report({ skipped: 'run.sh not found (PGBENCH_FLOOR, ../shared/bench/pgbench-floor)' });
  const missing = ['pgbench', 'psql'].filter((command) => !onPath(command));
  if (missing.length > 0) return report({ script, skipped: `${missing.join(' and ')} not installed` });
  const timeoutMs = (4 * secondsPerRun + 60) * 1000;
  const result = await runBounded(script, adminUrl, secondsPerRun, timeoutMs);
  if (result.error) return report({ script, skipped: result.error });
  try {
    const figures = JSON.parse(result.stdout.trim().split('\n').pop() ?? '') as FloorFigures;
    const best = Math.max(figures.one_tenant.c8, figures.one_tenant.c50);
    if (!Number.isFinite(best)) throw new Error('no one-tenant figure');
    return report({ script, figures, best_one_tenant_tps: best });
  } catch {
    return report({
      script,
      skipped: `unexpected output: ${result.stdout.slice(0, 200)} ${result.stderr.slice(0, 200)}`,
    });
  }
}

function runBounded(
  script: string,
  adminUrl: string,
  secondsPerRun: number,
  timeoutMs: number,
): Promise<{ stdout: string; stderr: string; error: string | null }> {
  return new Promise((resolvePromise) => {
    // its own process group, so that a timeout stops pgbench too (run.sh's trap then drops its database)
    const child = spawn('bash', [script, adminUrl], {
      env: { ...process.env, SECONDS_PER_RUN: String(secondsPerRun) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolvePromise({ stdout, stderr, error: err.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const error = timedOut
        ? `stopped after ${timeoutMs / 1000} s`
        : code === 0
          ? null
          : `exited with code ${code}: ${stderr.trim().slice(0, 300)}`;
      resolvePromise({ stdout, stderr, error });
    });
  });
}
