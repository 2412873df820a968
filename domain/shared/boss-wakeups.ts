import type { PgBoss } from 'pg-boss';

/**
 * pg-boss answers a queue's NOTIFY by waking every fetch loop of that queue in the process: with
 * one job per commit (a creation per request, many tenants), every loop but one fetches for
 * nothing, and each worker process adds its loops to the herd. Here a NOTIFY wakes one idle loop
 * of the queue, taking turns; only when every loop is working are they all told to fetch again
 * as soon as their batch is done (the notice is a flag, so a loop fetches once however many
 * arrive). A loop whose fetch comes back full wakes one more ({@link wakeAnotherLoop}), so a
 * burst spreads over the loops one full batch at a time. A NOTIFY stays a hint either way:
 * polling still bounds the pickup of anything missed, and after the listener reconnects pg-boss
 * still wakes every loop once.
 *
 * Installed on the worker's pg-boss before it starts: the notification handler is passed by
 * pg-boss to its database's `listen`, which this wraps on the instance.
 */
export function wakeOneLoopPerNotification(boss: PgBoss): void {
  const db = boss.getDb() as unknown as {
    listen?: (channel: string, onNotification: (queue: string) => void, onReconnect: () => void) => Promise<unknown>;
  };
  const listen = db.listen?.bind(db);
  if (!listen) return;
  const turns = new Map<string, number>();
  db.listen = (channel, _wakeEveryLoop, onReconnect) =>
    listen(channel, (queue) => wakeOneLoop(boss, queue, turns), onReconnect);
}

function wakeOneLoop(boss: PgBoss, queue: string, turns: Map<string, number>): void {
  const loops = loopsOf(boss, queue);
  if (!wakeIdleLoop(boss, queue, loops, turns)) for (const loop of loops) boss.notifyWorker(loop.id);
}

const fullBatchTurns = new Map<string, number>();

/**
 * Called by a loop that fetched a full batch: there may be more ready, so one idle loop of the
 * queue (if any) fetches now rather than at its next poll or NOTIFY.
 */
export function wakeAnotherLoop(boss: PgBoss, queue: string): void {
  wakeIdleLoop(boss, queue, loopsOf(boss, queue), fullBatchTurns);
}

const loopsOf = (boss: PgBoss, queue: string) => boss.getWipData().filter((loop) => loop.name === queue);

function wakeIdleLoop(
  boss: PgBoss,
  queue: string,
  loops: ReturnType<typeof loopsOf>,
  turns: Map<string, number>,
): boolean {
  const idle = loops.filter((loop) => loop.count === 0);
  if (idle.length === 0) return false;
  const turn = turns.get(queue) ?? 0;
  turns.set(queue, turn + 1);
  boss.notifyWorker(idle[turn % idle.length].id);
  return true;
}
