import autocannon from 'autocannon';
import type { CpuReading } from './cpu-meter.js';
import type { Scenario, ScenarioContext } from './scenarios.js';

export interface BenchSettings {
  durationS: number;
  warmupS: number;
  connections: number;
}

export interface ScenarioReport {
  name: string;
  method: string;
  path: string;
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non_2xx: number;
  duration_s: number;
  connections: number;
  /** CPU milliseconds per request of the web process, whatever else the machine runs. */
  web_cpu_ms_per_request: number | null;
  /** CPU milliseconds per request of the whole PostgreSQL cluster, when it runs on this machine. */
  database_cpu_ms_per_request: number | null;
}

export interface CpuMeters {
  web: CpuReading;
  database: CpuReading;
}

/** autocannon's `setupRequest` that gives each request the next set of headers, in turn. */
function nextHeaders(sets: Record<string, string>[]): (request: autocannon.Request) => autocannon.Request {
  let next = 0;
  return (request) => ({ ...request, headers: { ...request.headers, ...sets[next++ % sets.length] } });
}

export async function measureScenario(
  scenario: Scenario,
  context: ScenarioContext,
  settings: BenchSettings,
  meters: CpuMeters,
): Promise<ScenarioReport> {
  const extra = (await scenario.setup?.(context)) ?? {};
  const path = extra.path ?? scenario.path;
  const options = {
    url: `${context.baseUrl}${path}`,
    method: scenario.method,
    headers: { ...scenario.headers, ...extra.headers },
    body: extra.body ?? scenario.body,
    connections: scenario.connections ?? settings.connections,
    idReplacement: scenario.idReplacement ?? false,
    ...(extra.headerSets ? { requests: [{ setupRequest: nextHeaders(extra.headerSets) }] } : {}),
  };
  // a cold process (JIT, pool, caches) would drag the first seconds down, so that run is thrown away
  if (settings.warmupS > 0) await autocannon({ ...options, duration: settings.warmupS });
  const before = { web: meters.web(), database: meters.database() };
  const result = await autocannon({ ...options, duration: settings.durationS });
  const perRequest = (reading: CpuReading, start: number | null): number | null => {
    const end = reading();
    if (start === null || end === null || result.requests.total === 0) return null;
    return Math.round(((end - start) / result.requests.total) * 100) / 100;
  };
  const webCpu = perRequest(meters.web, before.web);
  const databaseCpu = perRequest(meters.database, before.database);
  return {
    name: scenario.name,
    method: scenario.method,
    path,
    requests_per_s: result.requests.average,
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors,
    non_2xx: result.non2xx,
    duration_s: result.duration,
    connections: options.connections,
    web_cpu_ms_per_request: webCpu,
    database_cpu_ms_per_request: databaseCpu,
  };
}
