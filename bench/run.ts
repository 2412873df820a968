import { createBenchDatabase } from './bench-database.js';
import { clusterCpu, processCpu } from './cpu-meter.js';
import { measureDocuments } from './documents.js';
import { envInt, selectedScenarios } from './env.js';
import { type ForensicReport, measureForensicExport } from './forensic.js';
import { measureLedgerAppend } from './ledger.js';
import { log } from './log.js';
import { measureMachineParallelism } from './machine-parallelism.js';
import { type BenchSettings, measureScenario, type ScenarioReport } from './measure.js';
import { type FloorReport, runFloor } from './pgbench-floor.js';
import { measurePipeline, type PhaseOutcome, type PipelineReport, pipelineSettings } from './pipeline.js';
import type { PhaseReport } from './pipeline-phase.js';
import { isPhase, summarizePipeline } from './pipeline-summary.js';
import { measureScaledPipeline, type ScaledPipelineReport } from './scale-pipeline.js';
import { MCP_HTTP_EQUIVALENT, SCENARIOS } from './scenarios.js';
import { measureSoak, type SoakReport, soakFailures } from './soak.js';
import { startWebServer } from './web-server.js';

async function main(): Promise<boolean> {
  const settings: BenchSettings = {
    durationS: envInt('BENCH_DURATION', 10, 1),
    warmupS: envInt('BENCH_WARMUP', 2, 0),
    connections: envInt('BENCH_CONNECTIONS', 20, 1),
  };
  const only = selectedScenarios();
  const startedAt = new Date().toISOString();
  const { reports, floor } = await runScenarios(settings, only);
  let pipeline: PipelineReport | null = null;
  if (!only || only.includes('pipeline')) {
    const pipelineSet = pipelineSettings();
    log(`pipeline: ${pipelineSet.invoices} invoices per phase, at most ${pipelineSet.total_timeout_s} s in all`);
    pipeline = await measurePipeline(pipelineSet);
  }
  let scaled: ScaledPipelineReport | null = null;
  if (!only || only.includes('pipeline_scale_out')) {
    log('pipeline_scale_out: 2 web processes behind a round-robin proxy, 2 worker processes');
    scaled = await measureScaledPipeline(pipelineSettings());
  }
  let soak: SoakReport | null = null;
  if (!only || only.includes('soak')) soak = await measureSoak();
  // The in-process measures run with any selection but `forensic_export` alone.
  const inProcess = !only || only.some((name) => name !== 'forensic_export');
  // After the web process has stopped: the renderers alone, as one worker process runs them.
  let documents: Awaited<ReturnType<typeof measureDocuments>> | null = null;
  let ledger: Awaited<ReturnType<typeof measureLedgerAppend>> | null = null;
  let parallelism: Awaited<ReturnType<typeof measureMachineParallelism>> | null = null;
  if (inProcess) {
    // each in-process measure runs for half of BENCH_DURATION, at least a second
    const seconds = Math.max(1, Math.round(settings.durationS / 2));
    log(`document_generate: ${settings.durationS} s per measure`);
    documents = await measureDocuments(seconds);
    log(`document_generate: ${JSON.stringify(documents)}`);
    if (pipeline) {
      log(`machine_parallelism: ${seconds} s alone, then two at once`);
      parallelism = await measureMachineParallelism(seconds);
      log(`machine_parallelism: ${JSON.stringify(parallelism)}`);
    }
    log(`ledger_append: ${settings.durationS} s per measure`);
    ledger = await measureLedgerAppend(seconds);
    log(`ledger_append: ${JSON.stringify(ledger)}`);
  }
  let forensic: ForensicReport | null = null;
  if (!only || only.includes('forensic_export')) {
    const entries = envInt('BENCH_FORENSIC_ENTRIES', 1_000_000, 1);
    log(`forensic_export: ${entries} entries`);
    forensic = await measureForensicExport(entries);
    log(`forensic_export: ${JSON.stringify(forensic)}`);
  }
  const mcp = compareMcp(reports);
  if (mcp)
    log(
      `mcp_tools_call: ${mcp.mcp_web_cpu_ms_per_call} ms CPU per call, ${mcp.ratio} × ${MCP_HTTP_EQUIVALENT} (target ≤ ${mcp.target})`,
    );
  const document = {
    node: process.version,
    started_at: startedAt,
    scenarios: reports,
    ...(mcp ? { mcp_vs_http: mcp } : {}),
    ...(floor ? { floor } : {}),
    ...(pipeline && documents
      ? { pipeline: { ...pipeline, summary: summarizePipeline(pipeline, documents, floor, parallelism) } }
      : {}),
    ...(scaled ? { pipeline_scale_out: scaled } : {}),
    ...(soak ? { soak } : {}),
    ...(documents ? { document_generate: documents } : {}),
    ...(parallelism ? { machine_parallelism: parallelism } : {}),
    ...(ledger ? { ledger_append: ledger } : {}),
    ...(forensic ? { forensic_export: forensic } : {}),
  };
  process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  const failed = reports.filter((r) => r.errors > 0 || r.non_2xx > 0);
  for (const r of failed) log(`${r.name}: ${r.errors} errors, ${r.non_2xx} non-2xx responses`);
  const pipelineFailed = pipeline ? pipelineCreationErrors(pipeline) : [];
  for (const line of pipelineFailed) log(line);
  const scaledFailed = scaled
    ? [scaled.one_tenant, scaled.many_tenants]
        .filter((phase) => phase.creation.errors > 0 || phase.creation.non_2xx > 0)
        .map(
          (phase) => `pipeline_scale_out: ${phase.creation.errors} errors, ${phase.creation.non_2xx} non-2xx responses`,
        )
    : [];
  const soakFailed = soak ? soakFailures(soak) : [];
  for (const line of [...scaledFailed, ...soakFailed]) log(line);
  const forensicFailed = forensic !== null && forensic.bytes !== forensic.content_length;
  if (forensicFailed)
    log(`forensic_export: ${forensic?.bytes} bytes received of ${forensic?.content_length} announced`);
  return (
    failed.length === 0 &&
    pipelineFailed.length === 0 &&
    scaledFailed.length === 0 &&
    soakFailed.length === 0 &&
    !forensicFailed
  );
}

/**
 * The MCP path's web CPU per call against the equivalent HTTP route's (same operation, same kind of
 * key): the target is at most 1.3 ×. Null unless both ran.
 */
function compareMcp(reports: readonly ScenarioReport[]) {
  const mcp = reports.find((r) => r.name === 'mcp_tools_call');
  const http = reports.find((r) => r.name === MCP_HTTP_EQUIVALENT);
  if (!mcp || !http || !mcp.web_cpu_ms_per_request || !http.web_cpu_ms_per_request) return null;
  return {
    http_scenario: MCP_HTTP_EQUIVALENT,
    mcp_web_cpu_ms_per_call: mcp.web_cpu_ms_per_request,
    http_web_cpu_ms_per_request: http.web_cpu_ms_per_request,
    ratio: Math.round((mcp.web_cpu_ms_per_request / http.web_cpu_ms_per_request) * 100) / 100,
    target: 1.3,
  };
}

/** Creations the service refused or dropped during the pipeline: like a scenario's, they fail the run. */
function pipelineCreationErrors(pipeline: PipelineReport): string[] {
  const phases: [string, PhaseOutcome][] = [
    ['one_worker.one_tenant', pipeline.one_worker.one_tenant],
    ['one_worker.many_tenants', pipeline.one_worker.many_tenants],
    ['two_workers.one_tenant', pipeline.two_workers.one_tenant],
    ['two_workers.many_tenants', pipeline.two_workers.many_tenants],
  ];
  return phases
    .filter(([, phase]) => isPhase(phase) && (phase.creation.errors > 0 || phase.creation.non_2xx > 0))
    .map(([name, phase]) => {
      const { errors, non_2xx } = (phase as PhaseReport).creation;
      return `pipeline ${name}: ${errors} errors, ${non_2xx} non-2xx responses`;
    });
}

async function runScenarios(
  settings: BenchSettings,
  only: string[] | null,
): Promise<{ reports: ScenarioReport[]; floor: FloorReport | null }> {
  const scenarios = SCENARIOS.filter((s) => !only || only.includes(s.name));
  // The floor is invoice_create's yardstick: it runs with it (or alone as `floor`), on the same cluster.
  const withFloor =
    !only || only.includes('floor') || only.includes('invoice_create') || only.includes('invoice_create_many_tenants');
  if (scenarios.length === 0 && !withFloor) return { reports: [], floor: null };
  const database = await createBenchDatabase();
  try {
    const reports: ScenarioReport[] = [];
    if (scenarios.length > 0) {
      const server = await startWebServer(database.url);
      try {
        const context = { baseUrl: server.baseUrl, databaseUrl: database.url };
        const meters = { web: processCpu(server.pid), database: await clusterCpu(database.adminUrl) };
        for (const scenario of scenarios) {
          log(`${scenario.name}: ${settings.warmupS} s warm-up, ${settings.durationS} s measured`);
          const report = await measureScenario(scenario, context, settings, meters);
          log(`${scenario.name}: ${report.requests_per_s} req/s, p50 ${report.p50_ms} ms, p99 ${report.p99_ms} ms`);
          reports.push(report);
        }
      } finally {
        await server.stop();
      }
    }
    if (!withFloor) return { reports, floor: null };
    const seconds = envInt('BENCH_FLOOR_SECONDS', 5, 1);
    log(`floor: pgbench, 4 runs of ${seconds} s`);
    const floor = await runFloor(database.adminUrl, seconds);
    const ratio = (rate: number | undefined, floorRate: number | null | undefined) =>
      rate !== undefined && floorRate ? Math.round((rate / floorRate) * 100) / 100 : null;
    const rateOf = (name: string) => reports.find((r) => r.name === name)?.requests_per_s;
    floor.invoice_create_ratio = ratio(rateOf('invoice_create'), floor.best_one_tenant_tps);
    floor.invoice_create_many_tenants_ratio = ratio(
      rateOf('invoice_create_many_tenants'),
      floor.figures?.many_tenants.c50,
    );
    log(
      floor.skipped
        ? `floor: not run (${floor.skipped})`
        : `floor: ${JSON.stringify(floor.figures)}; invoice_create ÷ best one-tenant = ${floor.invoice_create_ratio}; many tenants ÷ many_tenants.c50 = ${floor.invoice_create_many_tenants_ratio}`,
    );
    return { reports, floor };
  } finally {
    await database.drop();
  }
}

// An explicit exit code: the JSON is the output, the code says whether every request succeeded.
main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
