import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/** CPU milliseconds spent so far by the processes a meter watches. */
export type CpuReading = () => number | null;

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/**
 * CPU time of one process (utime + stime), and with `children` also of its reaped children
 * (cutime + cstime): a PostgreSQL backend that exits during a run is counted in the postmaster's.
 */
function procCpuMs(pid: number, children: boolean): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // fields after the command name, which may hold spaces: state is field 3, utime 14, stime 15, cutime 16, cstime 17
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + (children ? Number(fields[13]) + Number(fields[14]) : 0);
    return ticks * TICK_MS;
  } catch {
    return null;
  }
}

/**
 * The whole machine's busy CPU time: every process and the kernel (`/proc/stat`: user, nice,
 * system, irq, softirq and steal; not idle or iowait). Null where there is no `/proc/stat`.
 */
export const machineCpu: CpuReading = () => {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields;
    return (user + nice + system + irq + softirq + (steal ?? 0)) * TICK_MS;
  } catch {
    return null;
  }
};

/** This process's CPU time (the bench: its load generator and its webhook receiver). */
export const ownCpu: CpuReading = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The web process's own CPU time, on Linux. */
export function processCpu(pid: number | undefined): CpuReading {
  return () => (pid === undefined ? null : procCpuMs(pid, false));
}

/**
 * How long a process's main thread has waited, runnable, for a core (`/proc/<pid>/schedstat`, the
 * second field, in nanoseconds): what it lost to the other threads and processes on the machine.
 * Null where the kernel does not keep scheduler statistics.
 */
export function processRunQueueWait(pid: number | undefined): CpuReading {
  return () => {
    if (pid === undefined) return null;
    try {
      const waitNs = Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
      return Number.isFinite(waitNs) ? waitNs / 1e6 : null;
    } catch {
      return null;
    }
  };
}

/**
 * The whole PostgreSQL cluster's CPU time (postmaster, every backend and the WAL writer) when it
 * runs on this machine and the admin URL may read `data_directory`; null otherwise (a remote server).
 */
export async function clusterCpu(adminUrl: string): Promise<CpuReading> {
  const client = new pg.Client({ connectionString: adminUrl });
  let dataDirectory: string;
  try {
    await client.connect();
    dataDirectory = (await client.query<{ d: string }>('select current_setting($1) as d', ['data_directory'])).rows[0]
      .d;
  } catch {
    return () => null;
  } finally {
    await client.end().catch(() => {});
  }
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(`${dataDirectory}/postmaster.pid`, 'utf8').split('\n')[0]);
  } catch {
    return () => null;
  }
  return () => {
    const own = procCpuMs(postmaster, true);
    if (own === null) return null;
    let total = own;
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) {
          total += procCpuMs(Number(entry), false) ?? 0;
        }
      } catch {
        // the process ended between the listing and the read: its time is now the postmaster's
      }
    }
    return total;
  };
}
