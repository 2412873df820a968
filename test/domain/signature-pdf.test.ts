import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import test from 'ava';
import forge from 'node-forge';
import { renderTextDocumentPdf } from '../../domain/documents/index.js';
import {
  readPdfInfo,
  renderProofPdf,
  signPdf,
  simulatorIdentity,
  toPdfRect,
} from '../../domain/signatures/pdf/index.js';
import { pdfText, run } from '../helpers/pdf-tools.js';

const dir = mkdtempSync(join(tmpdir(), 'sigpdf-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

let counter = 0;
const save = (pdf: Buffer) => {
  const path = join(dir, `f${++counter}.pdf`);
  writeFileSync(path, pdf);
  return path;
};

/** A PDF written by hand with a classic xref table, from object bodies numbered from 1. */
function handMadePdf(bodies: string[]): Buffer {
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const stream = (content: string) => `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;

/**
 * Two pages: the first inherits a US Letter MediaBox from the page tree; the second is landscape
 * A4 with a CropBox of 400 × 300 points, and its resources inherited too.
 */
const TWO_PAGES = handMadePdf([
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R 4 0 R] /Count 2 /MediaBox [0 0 612 792] /Resources << /Font << /F1 7 0 R >> >> >>',
  '<< /Type /Page /Parent 2 0 R /Contents 5 0 R >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 842 595] /CropBox [10 10 410 310] /Contents 6 0 R >>',
  stream('BT /F1 18 Tf 72 700 Td (Page one of the contract) Tj ET'),
  stream('BT /F1 18 Tf 40 200 Td (Page two of the contract) Tj ET'),
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
]);

const ONE_PAGE = renderTextDocumentPdf({
  title: 'Contrat de prestation',
  date: '2026-11-26',
  footer: 'Contrat',
  blocks: [{ kind: 'paragraph', text: 'Le prestataire s’engage à livrer le service décrit ci-dessous.' }],
});

/** The same document with its objects in object streams and a cross-reference stream (PDF 1.5). */
function withXrefStream(pdf: Buffer): Buffer {
  const input = save(pdf);
  const output = join(dir, `xs${++counter}.pdf`);
  const result = run('qpdf', ['--object-streams=generate', input, output]);
  if (result.status !== 0) throw new Error(result.stderr);
  return readFileSync(output);
}

/** An RGBA PNG of a diagonal stroke on a transparent background, as a canvas exports it. */
function strokePng(width = 60, height = 24): string {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = y % 2 === 0 ? 0 : 2; // none and up filters
    for (let x = 0; x < width; x++) {
      const at = y * (width * 4 + 1) + 1 + x * 4;
      const on = Math.abs(x / width - y / height) < 0.08 ? 255 : 0;
      raw.set(y % 2 === 0 ? [10, 20, 120, on] : [0, 0, 0, 0], at);
    }
  }
  // Rows with the up filter repeat the row above: the stroke is drawn on even rows, doubled.
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** pdfsig's report, and whether it shows exactly one valid signature over the whole file. */
function checkSigned(t: import('ava').ExecutionContext, path: string) {
  const check = run('qpdf', ['--check', path]);
  t.is(check.status, 0, check.stdout + check.stderr);
  const { stdout } = run('pdfsig', [path]);
  t.is(stdout.match(/^Signature #\d+:/gm)?.length, 1, stdout);
  t.regex(stdout, /Signature Type: ETSI\.CAdES\.detached/);
  t.regex(stdout, /Signing Hash Algorithm: SHA-256/);
  t.regex(stdout, /Total document signed/);
  t.regex(stdout, /Signature Validation: Signature is Valid\./);
  return stdout;
}

const sizes = (pdf: Buffer) => readPdfInfo(pdf).pages;

test('readPdfInfo reads the page count and sizes, inherited MediaBox and CropBox included', (t) => {
  t.deepEqual(sizes(ONE_PAGE), [{ width: 595.28, height: 841.89 }]);
  const expected = [
    { width: 612, height: 792 },
    { width: 400, height: 300 },
  ];
  t.deepEqual(sizes(TWO_PAGES), expected);
  const streamed = withXrefStream(TWO_PAGES);
  t.true(streamed.includes('/ObjStm'), 'qpdf packed objects in object streams');
  t.deepEqual(sizes(streamed), expected);
});

test('toPdfRect converts percent and pixel positions to points from the lower-left corner', (t) => {
  const page = { width: 600, height: 800 };
  t.deepEqual(toPdfRect({ page: 1, x: 10, y: 50, width: 25, height: 10 }, page), {
    page: 1,
    x: 60,
    y: 320,
    width: 150,
    height: 80,
  });
  // Pixels measured on a page drawn at half size are scaled to the real page.
  t.deepEqual(
    toPdfRect(
      { page: 2, x: 30, y: 40, unit: 'pixel', width: 90, height: 30, page_width_px: 300, page_height_px: 400 },
      page,
    ),
    { page: 2, x: 60, y: 660, width: 180, height: 60 },
  );
  // A block past the page's edge is moved back onto it.
  const edge = toPdfRect({ page: 1, x: 5000, y: 5000 }, page);
  t.deepEqual([edge.x + edge.width, edge.y], [600, 0]);
});

test('two signers, a drawn and a typed signature on two pages: a valid PAdES signature over the whole file', (t) => {
  const [first, second] = sizes(TWO_PAGES);
  const signed = signPdf(TWO_PAGES, {
    signerName: 'Simulateur de signature',
    reason: 'Signature électronique simple',
    signers: [
      {
        name: 'Jeanne Dupré',
        signedAt: new Date('2026-11-26T10:15:00Z'),
        drawing: strokePng(),
        rects: [toPdfRect({ page: 1, x: 10, y: 80 }, first)],
      },
      {
        name: 'Bob Martin',
        signedAt: new Date('2026-11-26T10:20:00Z'),
        rects: [toPdfRect({ page: 2, x: 5, y: 50, width: 60, height: 30 }, second)],
      },
    ],
  });
  t.true(signed.subarray(0, TWO_PAGES.length).equals(TWO_PAGES), 'the original bytes are a prefix');
  t.regex(signed.subarray(TWO_PAGES.length).toString('latin1'), /\nxref\n[\s\S]*\/Prev \d+/);
  const path = save(signed);
  checkSigned(t, path);
  const [page1, page2] = pdfText(path).split('\f');
  t.regex(page1, /Page one of the contract/);
  t.regex(page1, /Jeanne Dupré/);
  t.regex(page1, /Signé électroniquement/);
  t.regex(page1, /Le 26\/11\/2026 à 11:15 \(heure de Paris\)/);
  t.notRegex(page1, /Bob Martin/);
  t.regex(page2, /Bob Martin[\s\S]*Bob Martin/, 'the typed name and the name line');
  t.regex(page2, /Le 26\/11\/2026 à 11:20/);
  t.true(signed.includes('/SMask'), 'the drawing keeps its transparency');
  t.deepEqual(sizes(signed), sizes(TWO_PAGES));
  const { stdout } = run('qpdf', ['--show-object=trailer', path]);
  t.notRegex(stdout, /Encrypt/);
  const form = run('qpdf', ['--json', '--json-key=acroform', path]).stdout;
  t.regex(form, /"hasacroform": true/);
});

test('a document with a cross-reference stream gets its update as a cross-reference stream; any European name shows', (t) => {
  const original = withXrefStream(TWO_PAGES);
  const signed = signPdf(original, {
    signers: [
      {
        name: 'Łukasz Żółć-Ελένη Δημητρίου',
        signedAt: new Date(),
        rects: [toPdfRect({ page: 2, x: 0, y: 0 }, sizes(original)[1])],
      },
    ],
  });
  t.true(signed.subarray(0, original.length).equals(original));
  const update = signed.subarray(original.length).toString('latin1');
  t.regex(update, /\/Type \/XRef/);
  t.notRegex(update, /\ntrailer\n/);
  const path = save(signed);
  checkSigned(t, path);
  t.regex(pdfText(path), /Łukasz Żółć-Ελένη Δημητρίου/);
  t.deepEqual(sizes(signed), sizes(original), 'the updated file reads back');
});

test('a one-page document from the project’s writer, signed without visible block, then its proof file', (t) => {
  const signed = signPdf(ONE_PAGE, { signers: [] });
  checkSigned(t, save(signed));
  const before = createHash('sha256').update(ONE_PAGE).digest('hex');
  const after = createHash('sha256').update(signed).digest('hex');
  const proof = renderProofPdf({
    requestId: 'c0a8e3e4-5b8e-4d4a-9a39-3c1f2e7a9b10',
    title: 'Contrat de prestation',
    documentName: 'contrat.pdf',
    sha256Before: before,
    sha256After: after,
    generatedAt: new Date('2026-11-26T11:00:00Z'),
    events: [
      {
        at: new Date('2026-11-26T10:20:00Z'),
        action: 'Signature',
        actor: 'Bob Martin <bob@example.com>',
        ip: '203.0.113.9',
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
      },
      {
        at: new Date('2026-11-26T10:15:00Z'),
        action: 'Création de la demande',
        actor: 'API',
        ip: '198.51.100.4',
        user_agent: 'curl/8.5.0',
      },
    ],
  });
  const path = save(proof);
  t.is(run('qpdf', ['--check', path]).status, 0);
  const text = pdfText(path).replace(/\s+/g, ' ');
  t.true(text.includes(before), 'the hash before signing');
  t.true(text.includes(after), 'the hash after signing');
  t.regex(text, /Création de la demande API[\s\S]*26\/11\/2026 10:15:00 UTC[\s\S]*26\/11\/2026 11:15:00 \(Paris\)/);
  t.regex(text, /198\.51\.100\.4 .*curl\/8\.5\.0/);
  t.regex(
    text,
    /Signature Bob Martin <bob@example\.com>[\s\S]*10:20:00 UTC[\s\S]*203\.0\.113\.9[\s\S]*Firefox\/133\.0/,
  );
  t.true(text.indexOf('10:15:00 UTC') < text.indexOf('10:20:00 UTC'), 'events in time order');
});

test('hostile and unusable inputs get a clear error, quickly', (t) => {
  t.throws(() => readPdfInfo(Buffer.from('PK\u0003\u0004 not a pdf at all')), { message: /not a PDF/ });
  t.throws(() => readPdfInfo(TWO_PAGES.subarray(0, Math.floor(TWO_PAGES.length / 2))), {
    message: /truncated or damaged/,
  });
  const encrypted = join(dir, 'encrypted.pdf');
  const result = run('qpdf', ['--encrypt', 'user', 'owner', '256', '--', save(TWO_PAGES), encrypted]);
  t.is(result.status, 0, result.stderr);
  t.throws(() => readPdfInfo(readFileSync(encrypted)), { message: /encrypted/ });
  t.throws(
    () =>
      signPdf(TWO_PAGES, {
        signers: [{ name: 'X', signedAt: new Date(), rects: [{ page: 3, x: 0, y: 0, width: 50, height: 50 }] }],
      }),
    { message: /page 3, but the document has 2 pages/ },
  );
  t.throws(
    () =>
      signPdf(TWO_PAGES, {
        signers: [
          {
            name: 'X',
            signedAt: new Date(),
            drawing: 'data:image/png;base64,AAAA',
            rects: [toPdfRect({ page: 1, x: 0, y: 0 }, sizes(TWO_PAGES)[0])],
          },
        ],
      }),
    { message: /not a PNG/ },
  );
  const reused = Buffer.from(
    TWO_PAGES.toString('latin1').replace('7 0 obj', '7 1 obj').replace('/F1 7 0 R', '/F1 7 1 R'),
    'latin1',
  );
  t.throws(() => readPdfInfo(reused), { message: /reuses object numbers/ });
  t.throws(
    () =>
      signPdf(TWO_PAGES, {
        signers: [{ name: 'X', signedAt: new Date(), rects: [{ page: 1, x: 0, y: 0, width: Number.NaN, height: 5 }] }],
      }),
    { message: /positive width/ },
  );
  // Damaged copies (bytes changed, cut, or a run removed) are read or refused with one of the messages above.
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let i = 0; i < 300; i++) {
    let copy = Buffer.from(i % 2 ? ONE_PAGE : TWO_PAGES);
    if (i % 3 === 0) for (let k = 0; k < 10; k++) copy[random(copy.length)] = random(256);
    else if (i % 3 === 1) copy = copy.subarray(0, random(copy.length));
    else {
      const at = random(copy.length);
      copy = Buffer.concat([copy.subarray(0, at), copy.subarray(at + random(500))]);
    }
    try {
      readPdfInfo(copy);
    } catch (err) {
      t.regex((err as Error).message, /^the (document|PDF) /);
    }
  }
  // A page tree that loops back on itself is read once.
  const looping = handMadePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [2 0 R 3 0 R 2 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] >>',
  ]);
  t.deepEqual(sizes(looping), [{ width: 300, height: 300 }]);
  // Megabytes of unterminated object headers and dictionaries: linear, an error, no hang.
  const junk = Buffer.from(
    `%PDF-1.7\n${'1 0 obj << /Kids [ << /Type /Pages '.repeat(150_000)}\nstartxref\n9\n%%EOF\n`,
    'latin1',
  );
  const started = Date.now();
  t.throws(() => readPdfInfo(junk), { message: /damaged/ });
  t.true(Date.now() - started < 5000, `${Date.now() - started} ms`);
});

test('a page turned by /Rotate is sized and stamped as displayed: the block stays upright at the top left', (t) => {
  const rotated = handMadePdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 /Rotate 90 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 300] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    stream('BT /F1 18 Tf 20 150 Td (Rotated text) Tj ET'),
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]);
  const [size] = sizes(rotated);
  t.deepEqual(size, { width: 300, height: 400 });
  const signed = signPdf(rotated, {
    signers: [
      {
        name: 'Claire Haut',
        signedAt: new Date(),
        rects: [toPdfRect({ page: 1, x: 0, y: 0, width: 50, height: 20 }, size)],
      },
    ],
  });
  const path = save(signed);
  checkSigned(t, path);
  // pdftotext's boxes are in displayed coordinates, from the top left: the name line is near it, horizontal.
  const word = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">Haut<\/word>/.exec(
    run('pdftotext', ['-bbox', path, '-']).stdout,
  );
  t.truthy(word);
  const [xMin, yMin, xMax, yMax] = (word as RegExpExecArray).slice(1).map(Number);
  t.true(xMax < 150 && yMax < 80, `${xMin} ${yMin} ${xMax} ${yMax}`);
  t.true(xMax - xMin > yMax - yMin, 'the word runs left to right');
});

test('a signed document signed again keeps its first signature valid, the second covering the whole file', (t) => {
  const once = signPdf(ONE_PAGE, {
    signers: [{ name: 'Première', signedAt: new Date(), rects: [{ page: 1, x: 40, y: 40, width: 150, height: 60 }] }],
  });
  const twice = signPdf(once, {
    signers: [{ name: 'Seconde', signedAt: new Date(), rects: [{ page: 1, x: 300, y: 40, width: 150, height: 60 }] }],
  });
  t.true(twice.subarray(0, once.length).equals(once));
  const path = save(twice);
  t.is(run('qpdf', ['--check', path]).status, 0);
  const report = run('pdfsig', [path]).stdout;
  const parts = report.split(/^Signature #\d+:/m).slice(1);
  t.is(parts.length, 2, report);
  t.regex(parts[0], /Signature Field Name: Signature 1[\s\S]*Signature is Valid\./);
  t.notRegex(parts[0], /Total document signed/);
  t.regex(parts[1], /Signature Field Name: Signature 2[\s\S]*Total document signed[\s\S]*Signature is Valid\./);
  t.regex(pdfText(path), /Première[\s\S]*Seconde/);
});

test('a caller’s own key and certificate sign instead of the simulator’s; a key of another certificate is refused', (t) => {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  cert.serialNumber = '0a1b2c';
  cert.validity.notBefore = new Date(Date.now() - 3600_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 24 * 3600_000);
  const name = [{ name: 'commonName', value: 'Cabinet Exemple' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  cert.sign(forge.pki.privateKeyFromPem(pem), forge.md.sha256.create());
  const identity = { privateKeyPem: pem, certificatePems: [forge.pki.certificateToPem(cert)] };
  const signed = signPdf(ONE_PAGE, { signers: [], identity });
  t.regex(checkSigned(t, save(signed)), /Signer Certificate Common Name: Cabinet Exemple/);
  const mismatched = { ...identity, privateKeyPem: simulatorIdentity().privateKeyPem };
  t.throws(() => signPdf(ONE_PAGE, { signers: [], identity: mismatched }), { message: /does not match/ });
});
