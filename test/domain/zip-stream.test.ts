import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import test from 'ava';
import { streamZip, type ZipSource } from '../../domain/shared/zip-stream.js';

const dir = mkdtempSync(join(tmpdir(), 'zip-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const STREAMED = Buffer.from('{"n":1}\n{"n":2}\n'.repeat(5000), 'utf8');
const ENTRIES: ZipSource[] = [
  { path: 'manifest.json', content: Buffer.from('{"a":1}\n') },
  { path: 'empty.txt', content: Buffer.alloc(0) },
  {
    path: 'entries.jsonl',
    size: STREAMED.length,
    open: () => Readable.from([STREAMED.subarray(0, 1000), STREAMED.subarray(1000)]),
  },
  { path: 'anchors/0001.tsr', content: Buffer.from([0x30, 0x82, 0x00, 0xff, 0x00, 0x0a]) },
  { path: 'vérifié/Société.txt', content: Buffer.from('Éts — 20,50 €', 'utf8') },
];
const bytesOf = (e: ZipSource) => ('content' in e ? e.content : STREAMED);
const AT = new Date('2026-03-04T02:03:07Z');

test('unzip and Python’s zipfile read the archive back, names, bytes, CRCs and dates intact', async (t) => {
  const zip = join(dir, 'a.zip');
  const archive = streamZip(ENTRIES, AT);
  const bytes = await buffer(archive.stream);
  t.is(bytes.length, archive.bytes, 'the length is known before the first byte');
  writeFileSync(zip, bytes);
  const tested = spawnSync('unzip', ['-t', zip], { encoding: 'utf8' });
  t.is(tested.status, 0, tested.stdout + tested.stderr);
  t.regex(tested.stdout, /No errors detected/);
  const out = join(dir, 'a');
  t.is(spawnSync('unzip', ['-q', zip, '-d', out]).status, 0);
  for (const e of ENTRIES) t.deepEqual(readFileSync(join(out, e.path)), bytesOf(e), e.path);

  const python = spawnSync(
    'python3',
    [
      '-c',
      `import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
print(json.dumps([[i.filename, i.compress_type, i.file_size, list(i.date_time), z.read(i).hex()] for i in z.infolist()]))
z.testzip()`,
      zip,
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  t.is(python.status, 0, python.stderr);
  // MS-DOS time has no zone and two-second steps: the local time of AT, seconds rounded down to even.
  const dos = [AT.getFullYear(), AT.getMonth() + 1, AT.getDate(), AT.getHours(), AT.getMinutes(), 6];
  t.deepEqual(
    JSON.parse(python.stdout),
    ENTRIES.map((e) => [e.path, 0, bytesOf(e).length, dos, bytesOf(e).toString('hex')]),
  );
});

test('the same entries at the same instant give the same bytes', async (t) => {
  const once = async (at: Date) => buffer(streamZip(ENTRIES, at).stream);
  t.deepEqual(await once(AT), await once(new Date(AT)));
  t.notDeepEqual(await once(AT), await once(new Date('2026-03-05T00:00:00Z')));
});

test('paths that escape the folder or repeat are refused', (t) => {
  for (const path of ['', '/etc/passwd', 'a/../../b', 'manifest.json']) {
    t.throws(() => streamZip([ENTRIES[0], { path, content: Buffer.alloc(0) }], AT), undefined, path);
  }
});

test('more files than the format without ZIP64 holds make a ZIP64 archive that unzip reads', async (t) => {
  const many = Array.from({ length: 0xffff + 10 }, (_, i) => ({ path: `f/${i}`, content: Buffer.from(`${i}`) }));
  const archive = streamZip(many, AT);
  const bytes = await buffer(archive.stream);
  t.is(bytes.length, archive.bytes);
  const zip = join(dir, 'many.zip');
  writeFileSync(zip, bytes);
  const tested = spawnSync('unzip', ['-tq', zip], { encoding: 'utf8' });
  t.is(tested.status, 0, tested.stdout + tested.stderr);
  const listed = spawnSync(
    'python3',
    ['-c', 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).infolist()))', zip],
    {
      encoding: 'utf8',
    },
  );
  t.is(listed.stdout.trim(), String(many.length), listed.stderr);
});

test('a streamed file that fails, or is not the size announced, ends the archive with an error', async (t) => {
  const failing = streamZip(
    [
      {
        path: 'x',
        size: 10,
        open: () =>
          Readable.from(
            (async function* () {
              yield Buffer.from('abc');
              throw new Error('disk gone');
            })(),
          ),
      },
    ],
    AT,
  );
  await t.throwsAsync(buffer(failing.stream), { message: 'disk gone' });
  const short = streamZip([{ path: 'x', size: 10, open: () => Readable.from([Buffer.from('abc')]) }], AT);
  await t.throwsAsync(buffer(short.stream), { message: /unexpected number of bytes/ });
});
