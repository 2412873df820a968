import { createBenchDatabase } from './bench-database.js';
import { clusterCpu, processCpu } from './cpu-meter.js';
import { measureDocuments } from './documents.js';
import { measureLedgerAppend } from './ledger.js';
import { log } from './log.js';
import { type BenchSettings, measureScenario, type ScenarioReport } from './measure.js';
import { SCENARIOS } from './scenarios.js';
import { startWebServer } from './web-server.js';

async function main(): Promise<boolean> {
  const settings: BenchSettings = {
    durationS: envInt('BENCH_DURATION', 10, 1),
    warmupS: envInt('BENCH_WARMUP', 2, 0),
    connections: envInt('BENCH_CONNECTIONS', 20, 1),
  };
  const startedAt = new Date().toISOString();
  const reports = await runScenarios(settings);
  // After the web process has stopped: the renderers alone, as one worker process runs them.
  log(`document_generate: ${settings.durationS} s per measure`);
  const documents = await measureDocuments(Math.max(1, Math.round(settings.durationS / 2)));
  log(`document_generate: ${JSON.stringify(documents)}`);
  log(`ledger_append: ${settings.durationS} s per measure`);
  const ledger = await measureLedgerAppend(Math.max(1, Math.round(settings.durationS / 2)));
  log(`ledger_append: ${JSON.stringify(ledger)}`);
  const document = {
    node: process.version,
    started_at: startedAt,
    scenarios: reports,
    document_generate: documents,
    ledger_append: ledger,
  };
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  const failed = reports.filter((r) => r.errors > 0 || r.non_2xx > 0);
  for (const r of failed) log(`${r.name}: ${r.errors} errors, ${r.non_2xx} non-2xx responses`);
  return failed.length === 0;
}

async function runScenarios(settings: BenchSettings): Promise<ScenarioReport[]> {
  const database = await createBenchDatabase();
  try {
    const server = await startWebServer(database.url);
    try {
      const context = { baseUrl: server.baseUrl, databaseUrl: database.url };
      const meters = { web: processCpu(server.pid), database: await clusterCpu(database.adminUrl) };
      const reports: ScenarioReport[] = [];
      const only = process.env.BENCH_SCENARIOS?.split(',').map((name) => name.trim());
      for (const scenario of SCENARIOS.filter((s) => !only || only.includes(s.name))) {
        log(`${scenario.name}: ${settings.warmupS} s warm-up, ${settings.durationS} s measured`);
        const report = await measureScenario(scenario, context, settings, meters);
        log(`${scenario.name}: ${report.requests_per_s} req/s, p50 ${report.p50_ms} ms, p99 ${report.p99_ms} ms`);
        reports.push(report);
      }
      return reports;
    } finally {
      await server.stop();
    }
  } finally {
    await database.drop();
  }
}

function envInt(name: string, fallback: number, min: number): number {
  const text = process.env[name]?.trim();
  if (!text) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min) throw new Error(`${name} must be an integer >= ${min} (got ${text})`);
  return Number(text);
}

// An explicit exit code: the JSON is the output, the code says whether every request succeeded.
main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
