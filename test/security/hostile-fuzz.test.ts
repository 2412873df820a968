import test from 'ava';
import { PARSER_BUDGET, ParserPool } from '../../domain/incoming/parser-pool.js';
import { postJson } from '../helpers/http.js';
import { type SeededTenant, seedPlatformTenant, seedSubTenant } from '../helpers/identities.js';
import { startTestApp, type TestApp } from '../helpers/test-app.js';
import { type SampleFormat, sample, uncompressedFacturx } from './hostile-samples.js';

/**
 * Mutated supplier files (byte flips, truncations, duplications, inserted PDF and XML tokens) from
 * valid Factur-X, UBL and CII files: the parser answers each with a result or a parse error, fast,
 * and manual registration answers each with 201, 409 or 422, writing rows only for a 201.
 */

const MUTANTS = 510;
const TOKENS = [
  '<',
  '>',
  '&#0;',
  '&#xD800;',
  '&bogus;',
  '<!DOCTYPE x>',
  '<![CDATA[',
  ']]>',
  '<a b>',
  '="',
  ' obj ',
  '1 0 obj',
  'endobj',
  'stream\n',
  'endstream',
  '/N 999999999',
  '/Length 9 0 R',
  '/Length 99999999',
  '/First 99999999',
  '<<',
  '>>',
  '(',
  ')',
  '\\',
  '/EF <<',
  '/Type /ObjStm',
  '%PDF-1.7',
  '\u0000',
  '\ufeff',
  '9'.repeat(40),
  '2026-02-30',
  '\ud800',
];

/** A small deterministic generator (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  let a = seed;
  return (n: number) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n;
  };
}

function mutate(file: Buffer, pick: (n: number) => number): { kind: string; bytes: Buffer } {
  const at = Math.floor(pick(file.length));
  switch (Math.floor(pick(4))) {
    case 0: {
      const bytes = Buffer.from(file);
      for (let k = 0, n = 1 + Math.floor(pick(8)); k < n; k++) bytes[Math.floor(pick(bytes.length))] = pick(256);
      return { kind: 'flip', bytes };
    }
    case 1:
      return { kind: 'truncate', bytes: file.subarray(0, at) };
    case 2: {
      const length = Math.floor(pick(Math.min(4096, file.length - at)));
      const slice = file.subarray(at, at + length);
      const times = 1 + Math.floor(pick(4));
      return {
        kind: 'duplicate',
        bytes: Buffer.concat([file.subarray(0, at), ...Array(times).fill(slice), file.subarray(at)]),
      };
    }
    default: {
      const token = TOKENS[Math.floor(pick(TOKENS.length))];
      const encoded = Buffer.from(token, [...token].some((c) => c.charCodeAt(0) > 0xff) ? 'utf8' : 'latin1');
      return {
        kind: `insert ${JSON.stringify(token)}`,
        bytes: Buffer.concat([file.subarray(0, at), encoded, file.subarray(at)]),
      };
    }
  }
}

function mutants(): { name: string; bytes: Buffer }[] {
  const formats: SampleFormat[] = ['facturx', 'ubl', 'cii'];
  const seeds = [
    ...formats.flatMap((format) => [1, 2].map((n) => ({ format, file: sample(`FUZZ-${format}-${n}`, format) }))),
    { format: 'facturx (uncompressed XML)', file: uncompressedFacturx('FUZZ-facturx-3') },
  ];
  const pick = random(20261126);
  return Array.from({ length: MUTANTS }, (_, i) => {
    const seed = seeds[i % seeds.length];
    const { kind, bytes } = mutate(seed.file, pick);
    return { name: `#${i} ${seed.format} ${kind}`, bytes };
  });
}

let app: TestApp;
let tenant: SeededTenant;
let subTenantId: string;
const files = mutants();

test.before(async () => {
  app = await startTestApp({ env: { RATE_LIMIT_SCALE: '0' } });
  tenant = await seedPlatformTenant(app.ownerDb, { kyb: 'verified' });
  subTenantId = await seedSubTenant(app.ownerDb, tenant.tenantId, { name: 'Fuzz SAS' });
});
test.after.always(() => app?.close());

test('every mutated file is read or refused with a parse error, within the parser budget', async (t) => {
  // Through a parser pool, so that a hang fails the test (the pool's time budget) instead of blocking it.
  const pool = new ParserPool({ ...PARSER_BUDGET, threads: 2, maxQueue: files.length });
  const outcomes = await Promise.all(files.map(({ bytes }) => pool.parse(bytes)));
  await pool.close();
  const faults = outcomes.flatMap((outcome, i) =>
    outcome.ok || !(outcome.unexpected || /longer than|memory/.test(outcome.error))
      ? []
      : [`${files[i].name}: ${outcome.error} ${outcome.unexpected ?? ''}`],
  );
  t.deepEqual(faults, []);
  const read = outcomes.filter((outcome) => outcome.ok).length;
  t.log(`${files.length} mutants: ${read} still readable, ${files.length - read} refused`);
});

test('manual registration answers every mutated file with 201, 409 or 422, and writes only for a 201', async (t) => {
  const count = async (table: string) =>
    Number((await app.ownerDb(table).where({ tenant_id: tenant.tenantId }).count({ n: '*' }))[0].n);
  const before = { invoices: await count('incoming_invoices'), events: await count('incoming_invoice_events') };
  const statuses = new Map<number, number>();
  const unexpected: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const { name, bytes } = files[next++];
      const res = await app.request(`/api/v1/tenant/sub-tenants/${subTenantId}/invoices/incoming`, {
        ...postJson(
          { file: { filename: 'fuzz.bin', content: bytes.toString('base64') } },
          { 'X-API-Key': tenant.keys.sk_test },
        ),
        signal: AbortSignal.timeout(10_000),
      });
      const body = await res.text();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (![201, 409, 422].includes(res.status)) unexpected.push(`${name}: ${res.status} ${body.slice(0, 200)}`);
      if (res.status === 422 && !JSON.parse(body).errors?.file) unexpected.push(`${name}: 422 without errors.file`);
    }
  };
  await Promise.all([lane(), lane(), lane(), lane()]);
  t.deepEqual(unexpected, []);
  const created = statuses.get(201) ?? 0;
  t.is(await count('incoming_invoices'), before.invoices + created);
  t.is(await count('incoming_invoice_events'), before.events + created);
  t.log(JSON.stringify(Object.fromEntries(statuses)));
});
