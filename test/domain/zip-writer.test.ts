import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { writeZip, ZIP_MAX_FILES, ZipTooLargeError } from '../../domain/shared/zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'zip-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

const ENTRIES = [
  { path: 'manifest.json', content: Buffer.from('{"a":1}\n') },
  { path: 'empty.txt', content: Buffer.alloc(0) },
  { path: 'anchors/0001.tsr', content: Buffer.from([0x30, 0x82, 0x00, 0xff, 0x00, 0x0a]) },
  { path: 'vérifié/Société.txt', content: Buffer.from('Éts — 20,50 €', 'utf8') },
];
const AT = new Date('2026-03-04T02:03:07Z');

test('unzip and Python’s zipfile read the archive back, names, bytes, CRCs and dates intact', (t) => {
  const zip = join(dir, 'a.zip');
  writeFileSync(zip, writeZip(ENTRIES, AT));
  const tested = spawnSync('unzip', ['-t', zip], { encoding: 'utf8' });
  t.is(tested.status, 0, tested.stdout + tested.stderr);
  t.regex(tested.stdout, /No errors detected/);
  const out = join(dir, 'a');
  t.is(spawnSync('unzip', ['-q', zip, '-d', out]).status, 0);
  for (const e of ENTRIES) t.deepEqual(readFileSync(join(out, e.path)), e.content, e.path);

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
    { encoding: 'utf8' },
  );
  t.is(python.status, 0, python.stderr);
  t.deepEqual(
    JSON.parse(python.stdout),
    ENTRIES.map((e) => [e.path, 0, e.content.length, [2026, 3, 4, 2, 3, 6], e.content.toString('hex')]),
  );
});

test('the same entries at the same instant give the same bytes', (t) => {
  t.deepEqual(writeZip(ENTRIES, AT), writeZip(ENTRIES, new Date(AT)));
  t.notDeepEqual(writeZip(ENTRIES, AT), writeZip(ENTRIES, new Date('2026-03-05T00:00:00Z')));
});

test('paths that escape the folder or repeat, and more files than the format holds, are refused', (t) => {
  for (const path of ['', '/etc/passwd', 'a/../../b', 'manifest.json']) {
    t.throws(() => writeZip([ENTRIES[0], { path, content: Buffer.alloc(0) }], AT), undefined, path);
  }
  const many = Array.from({ length: ZIP_MAX_FILES + 1 }, (_, i) => ({ path: `f${i}`, content: Buffer.alloc(0) }));
  t.throws(() => writeZip(many, AT), { instanceOf: ZipTooLargeError });
  t.notThrows(() => writeZip(many.slice(0, ZIP_MAX_FILES), AT));
});
