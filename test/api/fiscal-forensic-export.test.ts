import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { Readable } from 'node:stream';
import test from 'ava';
import { exportForensic } from '../../domain/fiscal-exports/operations/export-forensic.js';
import type { Caller } from '../../domain/shared/caller.js';
import { execute } from '../../domain/shared/execute.js';
import { expectInvalid, expectRefusal } from '../helpers/assertions.js';
import { closeDay, invoiceAt, runAnchorJobs, smallInvoice } from '../helpers/fiscal-closings.js';
import { seedFiscalChain, seedFiscalEntries } from '../helpers/fiscal-entries.js';
import { postJson, readJson } from '../helpers/http.js';
import { seedPlatformTenant } from '../helpers/identities.js';
import { opensslVerifyToken } from '../helpers/openssl-ts.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { TestClock, withClock } from '../helpers/test-clock.js';

/**
 * The archive is checked the way an auditor would: unzipped by the system's `unzip`, every hash
 * recomputed here with node:crypto from the files alone (none of the service's hashing code),
 * tokens verified by openssl, and the guide's own commands and script run as shipped.
 */
const clock = new TestClock('2026-03-02T09:00:00Z');
let app: TestApp;
const work = mkdtempSync(join(tmpdir(), 'forensic-'));
test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' }, override: withClock(clock) });
});
test.after.always(async () => {
  await app?.close();
  rmSync(work, { recursive: true, force: true });
});

const GENESIS = '0'.repeat(64);
const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    // biome-ignore lint/suspicious/noExplicitAny: archive lines are read loosely
    .map((l) => JSON.parse(l) as any);
const run = (command: string, args: string[], cwd: string) => spawnSync(command, args, { cwd, encoding: 'utf8' });
const shBlocks = (guide: string) => [...guide.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);

/** A tenant with two chains over two closed days; the sub-tenant's anchors are left pending. */
async function seeded() {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const key = tenant.keys.sk_test;
  const headers = { 'X-Tenant-Key': key };
  const sub = (
    await readJson(
      await app.request('/api/v1/tenant/sub-tenants', postJson({ external_id: 's', name: 'Boutique' }, headers)),
    )
  ).data;
  const subPath = `/api/v1/tenant/sub-tenants/${sub.id}/invoices`;
  await invoiceAt(app, clock, key, '2026-03-02T09:00:00Z', smallInvoice(10));
  await invoiceAt(app, clock, key, '2026-03-02T10:00:00Z', smallInvoice(20.5, { buyer_name: 'Société Générale Éts' }));
  await invoiceAt(app, clock, key, '2026-03-02T11:00:00Z', smallInvoice(7), subPath);
  await invoiceAt(app, clock, key, '2026-03-03T09:00:00Z', smallInvoice(30));
  await invoiceAt(app, clock, key, '2026-03-03T10:00:00Z', smallInvoice(8), subPath);
  clock.set('2026-03-04T01:00:00Z');
  await closeDay(app, key, { date: '2026-03-03' });
  await runAnchorJobs(app.ownerDb, app.deps, tenant.tenantId);
  await closeDay(app, key, { date: '2026-03-03', sub_tenant_id: sub.id });
  return { tenant, key, sub };
}

async function download(key: string, query = '') {
  const res = await app.request(`/api/v1/tenant/fiscal/forensic-export${query}`, { headers: { 'X-Tenant-Key': key } });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Unzips with the system's unzip into a fresh folder (after `unzip -t` tests every CRC). */
function unzip(t: { is: (a: unknown, b: unknown, m?: string) => void }, bytes: Buffer, name: string): string {
  const zip = join(work, `${name}.zip`);
  writeFileSync(zip, bytes);
  const tested = run('unzip', ['-t', zip], work);
  t.is(tested.status, 0, tested.stdout + tested.stderr);
  const dir = join(work, name);
  const out = run('unzip', ['-q', zip, '-d', dir], work);
  t.is(out.status, 0, out.stderr);
  return dir;
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true })
    .map(String)
    .filter((p) => statSync(join(dir, p)).isFile())
    .map((p) => relative(dir, join(dir, p)))
    .sort();

test.serial('the archive holds every chain as stored, and every hash recomputes from its files alone', async (t) => {
  const { tenant, key, sub } = await seeded();
  clock.set('2026-03-04T02:00:00Z');
  const { res, bytes } = await download(key);
  t.is(res.status, 200, bytes.toString().slice(0, 500));
  t.is(res.headers.get('content-type'), 'application/zip');
  t.regex(
    res.headers.get('content-disposition') ?? '',
    /attachment; filename="fiscal-forensic-export-sandbox-20260304T020000Z\.zip"/,
  );
  const dir = unzip(t, bytes, 'full');

  // The manifest names every other file with its SHA-256.
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  t.deepEqual(filesUnder(dir), ['manifest.json', ...manifest.files.map((f: { path: string }) => f.path)].sort());
  for (const f of manifest.files) t.is(sha256(readFileSync(join(dir, f.path))), f.sha256, f.path);
  t.like(manifest, {
    tenant: { id: tenant.tenantId, siret: '73282932000074' },
    environment: 'sandbox',
    sub_tenant_id: null,
    counts: { chains: 2, entries: 9, closings: 4, anchors: 4, anchored: 2, integrity_valid: true },
  });

  // Entries: the stored bytes, byte for byte, and each chain's links.
  const entries = lines(join(dir, 'entries.jsonl'));
  const stored = await app
    .ownerDb('fiscal_entries')
    .where({ tenant_id: tenant.tenantId })
    .orderByRaw('sub_tenant_id nulls first, sequence_number')
    .select('id', 'canonical_data', 'chain_hash');
  t.deepEqual(
    entries.map((e) => [e.id, e.canonical_data, e.chain_hash]),
    stored.map((r) => [r.id, r.canonical_data, r.chain_hash]),
  );
  t.true(
    entries.some((e) => e.canonical_data.includes('Société Générale Éts')),
    'UTF-8 kept as stored',
  );
  const chains = new Map<string | null, typeof entries>();
  for (const e of entries) chains.set(e.sub_tenant_id, [...(chains.get(e.sub_tenant_id) ?? []), e]);
  t.deepEqual([...chains.keys()], [null, sub.id]);
  for (const chain of chains.values()) {
    chain.forEach((e, i) => {
      t.is(e.sequence_number, i + 1);
      t.is(sha256(Buffer.from(e.canonical_data, 'utf8')), e.data_hash);
      t.is(e.previous_hash, i === 0 ? GENESIS : chain[i - 1].chain_hash);
      t.is(sha256(e.previous_hash + e.data_hash), e.chain_hash);
    });
  }

  // Closings: each seal recomputed, linked to the one before, sealing its chain's entry.
  const closings = lines(join(dir, 'closings.jsonl'));
  t.is(closings.length, 4);
  const previous = new Map<string, string>();
  for (const c of closings) {
    t.is(sha256(Buffer.from(c.canonical_data, 'utf8')), c.closing_hash);
    const sealed = JSON.parse(c.canonical_data);
    t.is(sealed.last_chain_hash, c.last_chain_hash);
    t.is(sealed.totals.net_ht, c.totals.net_ht);
    const chainKey = `${c.sub_tenant_id}:${c.type}`;
    t.is(c.previous_closing_hash, previous.get(chainKey) ?? GENESIS);
    previous.set(chainKey, c.closing_hash);
    t.is(chains.get(c.sub_tenant_id)?.[c.last_sequence_number - 1].chain_hash, c.last_chain_hash);
  }
  t.deepEqual(
    closings.filter((c) => c.sub_tenant_id === null).map((c) => [c.period_start, c.totals.net_ht]),
    [
      ['2026-03-02', '30.50'],
      ['2026-03-03', '30.00'],
    ],
  );

  // Anchors: the own chain's verify with openssl against the certificate shipped; the others wait.
  const anchors = lines(join(dir, 'anchors.jsonl'));
  const closingHash = new Map(closings.map((c) => [c.id, c.closing_hash]));
  for (const a of anchors) {
    t.is(a.data_hash, closingHash.get(a.closing_id));
    if (a.sub_tenant_id === sub.id) {
      t.like(a, { status: 'pending', token_file: null, ca_certificate_file: null });
      continue;
    }
    t.like(a, { status: 'anchored', verified: true });
    const token = readFileSync(join(dir, a.token_file));
    const ca = readFileSync(join(dir, a.ca_certificate_file), 'utf8');
    const verdict = await opensslVerifyToken(token, a.data_hash, ca);
    t.true(verdict.ok, verdict.output);
    const wrong = await opensslVerifyToken(token, sha256('another closing'), ca);
    t.false(wrong.ok, 'the token is bound to its closing hash');
  }

  const integrity = JSON.parse(readFileSync(join(dir, 'integrity.json'), 'utf8'));
  t.like(integrity, { valid: true, chains_checked: 2, entries_checked: 9, checked_at: '2026-03-04T02:00:00.000Z' });
});

test.serial('the guide’s commands and verify.py pass on the archive and catch an altered one', async (t) => {
  const { key } = await seeded();
  clock.set('2026-03-04T03:00:00Z');
  const dir = unzip(t, (await download(key)).bytes, 'guide');
  const guide = readFileSync(join(dir, 'VERIFY.md'), 'utf8');
  t.regex(guide, /openssl ts -verify -digest/);
  t.regex(guide, /Built-in TSA - not a qualified authority/);
  const blocks = shBlocks(guide);
  t.true(blocks.length >= 5, `${blocks.length} runnable blocks`);
  for (const block of blocks) {
    const out = run('bash', ['-c', block], dir);
    t.is(out.status, 0, `${block}\n${out.stdout}${out.stderr}`);
    t.notRegex(out.stdout, /MISMATCH/, `${block}\n${out.stdout}`);
    t.regex(out.stdout, /OK/, block);
  }
  t.true(
    blocks.some((b) => /Verification: OK/.test(run('bash', ['-c', b], dir).stdout)),
    'openssl verified a token',
  );
  const script = run('python3', ['verify.py'], dir);
  t.is(script.status, 0, script.stdout + script.stderr);
  t.regex(script.stdout, /entries: 9 in 2 chain\(s\) checked/);
  t.regex(script.stdout, /anchors: 4 listed, 2 tokens verified by openssl/);
  t.regex(script.stdout, /OK: every check passed\n$/);

  // One amount changed in place: the data hash no longer matches, nor does the manifest.
  const altered = join(work, 'altered');
  cpSync(dir, altered, { recursive: true });
  const path = join(altered, 'entries.jsonl');
  const entries = readFileSync(path, 'utf8').split('\n');
  const second = JSON.parse(entries[1]);
  second.canonical_data = second.canonical_data.replace('"total_ht":"20.50"', '"total_ht":"2.50"');
  t.not(second.canonical_data, JSON.parse(entries[1]).canonical_data);
  entries[1] = JSON.stringify(second);
  writeFileSync(path, entries.join('\n'));
  const caught = run('python3', ['verify.py'], altered);
  t.is(caught.status, 1);
  t.regex(caught.stdout, /FAIL manifest\.json: entries\.jsonl does not match/);
  t.regex(caught.stdout, /FAIL entries\.jsonl line 2 \(chain own, sequence 2\): data_hash is not the SHA-256/);
  const dataHashBlock = blocks.find((b) => b.includes('data_hash OK'))!.replace('n=1', 'n=2');
  t.regex(run('bash', ['-c', dataHashBlock], altered).stdout, /data_hash MISMATCH/);

  // A full rewrite of the own chain with every entry hash recomputed passes the entry checks, but
  // not the closings that sealed it: their last_chain_hash and totals no longer hold.
  const rewritten = join(work, 'rewritten');
  cpSync(dir, rewritten, { recursive: true });
  const all = lines(join(rewritten, 'entries.jsonl'));
  let previousHash = GENESIS;
  for (const e of all.filter((x) => x.sub_tenant_id === null)) {
    e.canonical_data = e.canonical_data.replace('"total_ht":"20.50"', '"total_ht":"2.50"');
    e.data_hash = sha256(Buffer.from(e.canonical_data, 'utf8'));
    e.previous_hash = previousHash;
    e.chain_hash = sha256(e.previous_hash + e.data_hash);
    previousHash = e.chain_hash;
  }
  writeFileSync(join(rewritten, 'entries.jsonl'), all.map((e) => `${JSON.stringify(e)}\n`).join(''));
  const resealed = run('python3', ['verify.py'], rewritten);
  t.is(resealed.status, 1);
  t.notRegex(resealed.stdout, /FAIL entries\.jsonl/, 'the rewritten chain is consistent in itself');
  t.regex(resealed.stdout, /FAIL closings\.jsonl line 1 \(daily 2026-03-02\): last_chain_hash is not the chain_hash/);
  t.regex(resealed.stdout, /FAIL closings\.jsonl line 1 \(daily 2026-03-02\): totals differ/);
});

test.serial('one sub-tenant’s chain on request; only the key’s own tenant and environment', async (t) => {
  const { key, sub } = await seeded();
  clock.set('2026-03-04T04:00:00Z');
  const { res, bytes } = await download(key, `?sub_tenant_id=${sub.id}`);
  t.is(res.status, 200);
  const dir = unzip(t, bytes, 'sub');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  t.like(manifest, { sub_tenant_id: sub.id, counts: { chains: 1, entries: 4, closings: 2, anchors: 2, anchored: 0 } });
  t.true(lines(join(dir, 'entries.jsonl')).every((e) => e.sub_tenant_id === sub.id));
  t.regex(readFileSync(join(dir, 'VERIFY.md'), 'utf8'), /holds no anchored time-stamp yet/);
  const script = run('python3', ['verify.py'], dir);
  t.is(script.status, 0, script.stdout);

  const other = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const theirs = await app.request(`/api/v1/tenant/fiscal/forensic-export?sub_tenant_id=${sub.id}`, {
    headers: { 'X-Tenant-Key': other.keys.sk_test },
  });
  await expectRefusal(t, theirs, 404, 'NOT_FOUND');
  const empty = await download(other.keys.sk_test);
  t.is(empty.res.status, 200);
  const emptyDir = unzip(t, empty.bytes, 'empty');
  t.is(readFileSync(join(emptyDir, 'entries.jsonl'), 'utf8'), '');
  t.is(run('python3', ['verify.py'], emptyDir).status, 0);
  await expectInvalid(
    t,
    await app.request('/api/v1/tenant/fiscal/forensic-export?environment=production', {
      headers: { 'X-Tenant-Key': key },
    }),
    'environment',
  );
});

/** The descriptors this process holds open on a forensic spool file (unlinked, so Linux shows it "(deleted)"). */
const openSpools = () =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).includes('forensic-entries-');
    } catch {
      return false; // closed meanwhile (the listing's own descriptor)
    }
  }).length;

/** `read()` once it equals `expected` (closing a file completes on libuv's thread pool), or its value after 5 s. */
async function settled<T>(read: () => T, expected: T): Promise<T> {
  for (let i = 0; i < 500 && read() !== expected; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  return read();
}

test.serial('a long chain streams out whole, with no cap, holding little of it in memory at any time', async (t) => {
  const tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  const [sub] = await app
    .ownerDb('sub_tenants')
    .insert({ tenant_id: tenant.tenantId, environment: 'sandbox', name: 'Long', external_id: 'long' })
    .returning('id');
  await seedFiscalChain(app.ownerDb, { tenantId: tenant.tenantId, environment: 'sandbox' }, 20_000);
  await seedFiscalEntries(app.ownerDb, { tenantId: tenant.tenantId, environment: 'sandbox', subTenantId: sub.id }, 3);
  clock.set('2026-03-05T01:00:00Z');

  // Over HTTP: the length announced before the body, which the system's unzip and verify.py accept.
  const { res, bytes } = await download(tenant.keys.sk_test);
  t.is(res.status, 200, bytes.toString().slice(0, 500));
  t.is(Number(res.headers.get('content-length')), bytes.length);
  const dir = unzip(t, bytes, 'long');
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  t.like(manifest, { counts: { chains: 2, entries: 20_003, integrity_valid: true } });
  for (const f of manifest.files) t.is(sha256(readFileSync(join(dir, f.path))), f.sha256, f.path);
  const entries = lines(join(dir, 'entries.jsonl'));
  t.is(entries.length, 20_003);
  t.deepEqual(
    [entries[0].sequence_number, entries[19_999].sequence_number, entries[20_000].sub_tenant_id],
    [1, 20_000, sub.id],
  );
  const script = run('python3', ['verify.py'], dir);
  t.is(script.status, 0, script.stdout + script.stderr);
  t.regex(script.stdout, /entries: 20003 in 2 chain\(s\) checked/);

  // In process: the operation hands back a stream, not the archive's bytes. Read to the end, it
  // never buffers more than the small files (the entries come from the spool a chunk at a time),
  // and its file is gone from disk already and closed once read.
  const caller: Caller = { kind: 'tenant', tenantId: tenant.tenantId, environment: 'sandbox', scopes: ['fiscal:read'] };
  const before = openSpools();
  const out = await execute(exportForensic, {}, caller, app.deps);
  t.false(Buffer.isBuffer(out.content));
  const stream = out.content as Readable;
  t.is(openSpools(), before + 1, 'the entries wait in one open spool file');
  t.deepEqual(
    readdirSync(tmpdir()).filter((f) => f.startsWith('forensic-entries-')),
    [],
    'no spool file is left in the temporary folder',
  );
  let read = 0;
  let mostBuffered = 0;
  for await (const chunk of stream) {
    read += (chunk as Buffer).length;
    mostBuffered = Math.max(mostBuffered, stream.readableLength + (chunk as Buffer).length);
  }
  t.is(read, out.bytes ?? -1);
  t.true(read > 10 * 1024 * 1024, `${read} bytes`);
  t.true(mostBuffered < 1024 * 1024, `at most ${mostBuffered} bytes buffered of ${read}`);
  t.is(await settled(() => openSpools(), before), before, 'the spool file is closed once read');

  // A download dropped half-way closes the spool too.
  const dropped = (await execute(exportForensic, {}, caller, app.deps)).content as Readable;
  for await (const _ of dropped) break; // leaving a for-await destroys the stream
  t.is(await settled(() => openSpools(), before), before, 'the spool file is closed when the stream is dropped');
});
