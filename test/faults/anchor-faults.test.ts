import path from 'node:path';
import test from 'ava';
import { startLocalTsa } from '../helpers/local-tsa.js';
import { opensslVerifyToken } from '../helpers/openssl-ts.js';
import { closeYesterday, forgetTsa, useTsa } from './closings.js';
import { startFakeTsa } from './fake-tsa.js';
import { type FaultTenant, faultTenant, type Harness, sleep, startHarness, until } from './harness.js';
import { balancesMatch, type Figures, ledgerValid, printFigures } from './invariants.js';

/**
 * The fault suite's anchoring scenario (docs/operations.md "Fault suite"): the worker is killed with
 * SIGKILL while time-stamp requests are in flight at the TSA, one answer just written back to it.
 * Each closing must end anchored exactly once, by a token that verifies, with its calls on record.
 */
let h: Harness;
const figures: Figures[] = [];

test.before(async () => {
  h = await startHarness();
});

test.after.always(async () => {
  for (const f of figures) printFigures(f);
  await h?.close();
});

interface AnchorRow {
  id: string;
  tenant_id: string;
  entity_id: string;
  status: string;
  token: string | null;
  ca_certificate: string | null;
  closing_hash: string;
}

const CLOSINGS = 4;
/** Slow enough that every anchor's first call is still at the TSA when the first answer goes back. */
const SLOW_MS = 3000;

test.serial('kill -9 of the worker while anchors are in flight at the TSA: each closing anchored once', async (t) => {
  const startedAt = Date.now();
  const tsa = await startLocalTsa();
  // every first call is slow; the calls after the restart are answered at once
  const fake = await startFakeTsa(tsa, (i) => (i < CLOSINGS ? 'slow' : 'ok'), SLOW_MS);
  try {
    await useTsa(h, { url: fake.url, caFile: path.join(tsa.dir, 'ca.pem'), timeoutMs: 20_000 });
    const list: FaultTenant[] = [];
    for (let i = 0; i < CLOSINGS; i++) list.push(await faultTenant(h));
    const ids = list.map((l) => l.tenantId);
    // the first answer is written back while the other calls wait at the TSA: the worker dies with
    // one token received (stored or not) and the others never answered
    const firstAnswer = fake.nextAnswer();
    for (const tenant of list) await closeYesterday(h, tenant);
    await firstAnswer;
    const inFlightAtKill = fake.inFlight();
    const answeredAtKill = fake.answered();
    await h.worker.kill9();
    const storedAtKill = await anchoredCount(ids);
    t.true(inFlightAtKill >= 1, `anchors in flight at the kill: ${inFlightAtKill}`);
    await sleep(500);
    await h.worker.start();

    // the dead worker's jobs come back once their heartbeat lapses (10 s), on the retry schedule (30 s)
    const anchors = await until(
      'every anchor settled',
      async () => {
        const rows = await anchorsOf(ids);
        return rows.length >= list.length && rows.every((r) => r.status !== 'pending') ? rows : null;
      },
      150_000,
    );
    const closings = await h.db('fiscal_closings').whereIn('tenant_id', ids).select('id');
    const attempts = await h
      .db('fiscal_anchor_attempts')
      .whereIn('tenant_id', ids)
      .select<{ anchor_id: string; outcome: string }[]>('anchor_id', 'outcome');
    const perClosing = new Map<string, AnchorRow[]>();
    for (const a of anchors) perClosing.set(a.entity_id, [...(perClosing.get(a.entity_id) ?? []), a]);
    const granted = (anchorId: string) => attempts.filter((a) => a.anchor_id === anchorId && a.outcome === 'granted');
    let verified = 0;
    for (const a of anchors) {
      if (a.status !== 'anchored' || !a.token || !a.ca_certificate) continue;
      const check = await opensslVerifyToken(Buffer.from(a.token, 'base64'), a.closing_hash, a.ca_certificate);
      if (check.ok) verified++;
      else t.log(`anchor ${a.id}: ${check.output}`);
    }
    const anchoredOnce = closings.filter((c) => {
      const rows = perClosing.get(c.id) ?? [];
      return rows.length === 1 && rows[0].status === 'anchored' && granted(rows[0].id).length === 1;
    }).length;
    const doubled =
      closings.filter((c) => (perClosing.get(c.id)?.length ?? 0) > 1).length +
      anchors.filter((a) => granted(a.id).length > 1).length;
    const lost = closings.filter((c) => !perClosing.get(c.id)?.some((a) => a.status === 'anchored')).length;
    const f: Figures = {
      fault: `worker kill -9 with ${inFlightAtKill} anchor calls in flight at the TSA`,
      requested: list.length,
      acknowledged: closings.length,
      found: anchoredOnce,
      lost,
      doubled,
      unanswered_at_first: inFlightAtKill,
      half_written: anchors.filter((a) => a.status !== 'anchored').length,
      redelivered: 0,
      ledger_valid: await ledgerValid(h, list),
      balances_match: await balancesMatch(h, list),
      seconds: Math.round((Date.now() - startedAt) / 1000),
      missing:
        `${answeredAtKill} answer(s) written back before the kill, ${storedAtKill} stored by then; ` +
        `${fake.served.length} TSA calls, ${attempts.length} on record ` +
        `(${fake.served.length - attempts.length} cut short by the kill); ${verified} tokens verified by openssl`,
    };
    figures.push(f);

    t.is(closings.length, list.length, 'one closing per tenant');
    t.is(f.found, list.length, 'every closing has one anchor, anchored, by one granted call');
    t.is(f.lost, 0, 'no anchor lost');
    t.is(f.doubled, 0, 'no closing anchored twice');
    t.is(verified, list.length, 'every token verifies (openssl ts -verify against the closing hash)');
    t.is(await pendingCount(ids), 0, 'no anchor left pending');
    // a call whose worker died before recording it is the only one missing from the record
    t.true(attempts.length >= list.length, 'every answered call is on record');
    t.true(attempts.length <= fake.served.length, 'no attempt recorded that the TSA did not see');
    t.true(
      fake.served.length - attempts.length <= inFlightAtKill + answeredAtKill,
      'only the calls the kill cut short are unrecorded',
    );
    t.true(f.ledger_valid, 'the chains and their anchored closings verify');
    t.true(f.balances_match);
  } finally {
    forgetTsa(h);
    await fake.close();
    await tsa.remove();
  }
});

async function anchorsOf(tenantIds: string[]): Promise<AnchorRow[]> {
  return h
    .db('fiscal_anchors as a')
    .join('fiscal_closings as c', 'c.id', 'a.entity_id')
    .whereIn('a.tenant_id', tenantIds)
    .select<AnchorRow[]>(
      'a.id',
      'a.tenant_id',
      'a.entity_id',
      'a.status',
      'a.token',
      'a.ca_certificate',
      'c.closing_hash',
    );
}

async function anchoredCount(tenantIds: string[]): Promise<number> {
  const [{ n }] = await h
    .db('fiscal_anchors')
    .whereIn('tenant_id', tenantIds)
    .where({ status: 'anchored' })
    .count<{ n: number }[]>({ n: '*' });
  return Number(n);
}

async function pendingCount(tenantIds: string[]): Promise<number> {
  const [{ n }] = await h
    .db('fiscal_anchors')
    .whereIn('tenant_id', tenantIds)
    .where({ status: 'pending' })
    .count<{ n: number }[]>({ n: '*' });
  return Number(n);
}
