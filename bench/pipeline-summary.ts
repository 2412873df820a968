import { availableParallelism } from 'node:os';
import type { DocumentsReport } from './documents.js';
import type { QueuePickup } from './job-pickup.js';
import type { MachineParallelismReport } from './machine-parallelism.js';
import type { FloorReport } from './pgbench-floor.js';
import type { BacklogOutcome, PhaseOutcome, PipelineReport } from './pipeline.js';
import type { WarmDrain } from './pipeline-backlog.js';
import type { PhaseReport } from './pipeline-phase.js';

/** One target of the team: the figure of this run, and whether it meets it (null: not measured). */
export interface TargetCheck {
  target: string;
  value: number | null;
  met: boolean | null;
  note?: string;
}

export interface PipelineSummary {
  /**
   * Documents per second through the queue (one worker, draining a backlog of the document queue
   * alone, once warm) ÷ the in-process worker_job_per_second.facturx (measured after a warm-up
   * too); `from_cold_start` the same with the drain's first documents, from the worker's start.
   */
  queue_overhead: {
    in_process_facturx_per_s: number;
    one_tenant: number | null;
    many_tenants: number | null;
    from_cold_start: { one_tenant: number | null; many_tenants: number | null };
  };
  /**
   * Backlog documents per second (warm) with two worker processes ÷ with one (`speedup`), and ÷
   * twice one (`per_worker`); `from_cold_start` the speedup over the whole drains; `ceiling` is
   * the most a second worker could add on this machine: its cores ÷ the cores one worker's warm
   * drain kept busy (worker, PostgreSQL and the kernel's work for them).
   */
  scaling: Record<
    'one_tenant' | 'many_tenants',
    { speedup: number | null; per_worker: number | null; from_cold_start: number | null; ceiling: number | null }
  > & {
    /** Two processes rendering at once ÷ one alone, nothing else running: the machine's own ceiling. */
    machine_two_processes: number | null;
  };
  targets: Record<string, TargetCheck>;
}

export const isPhase = (outcome: PhaseOutcome | undefined): outcome is PhaseReport =>
  outcome !== undefined && !('skipped' in outcome);

/** Three significant digits: the queue's ratio today is in the thousandths. */
const ratio = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a == null || b == null || b === 0 ? null : Number((a / b).toPrecision(3));

const check = (target: string, value: number | null, ok: (v: number) => boolean, note?: string): TargetCheck => ({
  target,
  value,
  met: value === null ? null : ok(value),
  ...(note ? { note } : {}),
});

/** The worst p99 over the pipeline's queues, and how many of their jobs never started (counted as waiting until the end). */
function worstP99(pickups: Record<string, QueuePickup>[]): { p99: number | null; unstarted: number } {
  let p99: number | null = null;
  let unstarted = 0;
  for (const pickup of pickups) {
    for (const queue of Object.values(pickup)) {
      unstarted += queue.jobs - queue.started;
      if (queue.p99_ms !== null) p99 = Math.max(p99 ?? 0, queue.p99_ms);
    }
  }
  return { p99, unstarted };
}

/**
 * The most `workers` worker processes can do against one on this machine: its cores ÷ the cores one
 * worker's warm drain kept busy, at most `workers`. Null when the machine's CPU could not be read.
 */
function ceiling(outcome: BacklogOutcome, workers: number): number | null {
  const drain = warmDrain(outcome);
  if (drain === null || drain.machine_cpu_ms_per_document === null || !drain.seconds) return null;
  const busyCores = (drain.machine_cpu_ms_per_document * drain.documents) / (drain.seconds * 1000);
  return busyCores > 0 ? Number(Math.min(workers, availableParallelism() / busyCores).toPrecision(3)) : null;
}

/** The phases whose creation outran what the machine sustains end to end, said as such; null if none did. */
function outpaced(phases: PhaseReport[]): string | null {
  const over = phases.flatMap(({ cpu, creation, tenants, workers }) =>
    cpu !== null && creation.requests_per_s > cpu.sustainable_invoices_per_s
      ? [
          `${tenants} tenant(s), ${workers} worker(s): created at ${creation.requests_per_s}/s, the machine sustains ` +
            `${cpu.sustainable_invoices_per_s}/s end to end (${cpu.machine_ms_per_invoice} ms of CPU per invoice on ${cpu.cores} cores)`,
        ]
      : [],
  );
  return over.length === 0 ? null : over.join('; ');
}

/** A backlog's figures once its workers were warm; null when skipped or too small to have them. */
const warmDrain = (outcome: BacklogOutcome): WarmDrain | null => ('skipped' in outcome ? null : outcome.warm);

const coldNote = (value: number | null): string | null =>
  value === null ? null : `measured on warm workers; with each worker process's first documents included, ${value}`;

function ceilingNote(scaling: PipelineSummary['scaling'], tenants: number): string | null {
  const { one_tenant: one, many_tenants: many } = scaling;
  if (one.ceiling === null || many.ceiling === null) return null;
  return `one worker's drain kept the machine so busy that two can do at most ${one.ceiling}× (one tenant) and ${many.ceiling}× (${tenants} tenants)`;
}

/** A target's note: the notes that apply, in one line; none when none does. */
const notes = (...parts: (string | null)[]): string | undefined =>
  parts.filter((part) => part !== null).join('; ') || undefined;

/** The ratios and the team's targets, from the pipeline, the in-process renderers and the floor. */
export function summarizePipeline(
  pipeline: PipelineReport,
  documents: DocumentsReport,
  floor: FloorReport | null,
  parallelism: MachineParallelismReport | null = null,
): PipelineSummary {
  const inProcess = documents.worker_job_per_second.facturx;
  const one = pipeline.one_worker;
  const two = pipeline.two_workers;
  const backlog = pipeline.backlog;
  const rate = (outcome: BacklogOutcome) => warmDrain(outcome)?.documents_per_s ?? null;
  const coldRate = (outcome: BacklogOutcome) => ('skipped' in outcome ? null : outcome.documents_per_s);
  const scaling = (mix: 'one_tenant' | 'many_tenants') => {
    const base = rate(backlog.one_worker[mix]);
    const doubled = rate(backlog.two_workers[mix]);
    return {
      speedup: ratio(doubled, base),
      per_worker: ratio(doubled, base === null ? null : 2 * base),
      from_cold_start: ratio(coldRate(backlog.two_workers[mix]), coldRate(backlog.one_worker[mix])),
      ceiling: ceiling(backlog.one_worker[mix], 2),
    };
  };
  const loadPhases = [one.one_tenant, one.many_tenants, two.one_tenant, two.many_tenants].filter(isPhase);
  const readyAfter = loadPhases.filter((p) => p.workers === 1);
  const unfinished = readyAfter.filter((p) => p.documents_ready_after_s === null);
  const idle = 'skipped' in pipeline.idle ? null : worstP99([pipeline.idle.pickup_ms]);
  const load = worstP99(loadPhases.map((p) => p.pickup_ms));
  const summary: PipelineSummary = {
    queue_overhead: {
      in_process_facturx_per_s: inProcess,
      one_tenant: ratio(rate(backlog.one_worker.one_tenant), inProcess),
      many_tenants: ratio(rate(backlog.one_worker.many_tenants), inProcess),
      from_cold_start: {
        one_tenant: ratio(coldRate(backlog.one_worker.one_tenant), inProcess),
        many_tenants: ratio(coldRate(backlog.one_worker.many_tenants), inProcess),
      },
    },
    scaling: {
      one_tenant: scaling('one_tenant'),
      many_tenants: scaling('many_tenants'),
      machine_two_processes: parallelism?.speedup ?? null,
    },
    targets: {},
  };
  const t = summary.targets;
  const worst = (a: number | null, b: number | null) => (a === null || b === null ? null : Math.min(a, b));
  t.queue_facturx_vs_in_process = check(
    '>= 0.5',
    worst(summary.queue_overhead.one_tenant, summary.queue_overhead.many_tenants),
    (v) => v >= 0.5,
    notes(
      coldNote(
        worst(summary.queue_overhead.from_cold_start.one_tenant, summary.queue_overhead.from_cold_start.many_tenants),
      ),
    ),
  );
  t.documents_ready_after_last_creation_s = check(
    `<= 10 (${pipeline.settings.invoices} invoices)`,
    unfinished.length > 0 || readyAfter.length === 0
      ? null
      : Math.max(...readyAfter.map((p) => p.documents_ready_after_s ?? 0)),
    (v) => v <= 10,
    unfinished.length > 0 ? unfinished.map((p) => `${p.tenants} tenant(s): ${p.progress}`).join('; ') : undefined,
  );
  if (unfinished.length > 0) t.documents_ready_after_last_creation_s.met = false;
  t.pickup_p99_idle_ms = check('<= 200', idle?.p99 ?? null, (v) => v <= 200);
  t.pickup_p99_load_ms = check(
    '<= 1000',
    load.p99,
    (v) => v <= 1000,
    notes(
      load.unstarted > 0
        ? `${load.unstarted} jobs never started within the timeouts: the p99 is a lower bound (their wait until the end)`
        : null,
      outpaced(loadPhases),
    ),
  );
  if (load.unstarted > 0) t.pickup_p99_load_ms.met = false;
  t.two_workers_speedup = check(
    '>= 1.6',
    worst(summary.scaling.one_tenant.speedup, summary.scaling.many_tenants.speedup),
    (v) => v >= 1.6,
    notes(
      parallelism
        ? `on this machine two processes rendering at once, nothing else running, did ${parallelism.speedup}× one alone`
        : null,
      coldNote(worst(summary.scaling.one_tenant.from_cold_start, summary.scaling.many_tenants.from_cold_start)),
      ceilingNote(summary.scaling, pipeline.settings.tenants),
    ),
  );
  t.invoice_create_vs_floor = check(
    '>= 1.0',
    floor?.invoice_create_ratio ?? null,
    (v) => v >= 1.0,
    floor?.skipped ?? (floor ? undefined : 'the floor did not run (BENCH_SCENARIOS)'),
  );
  return summary;
}
