import { createHash, randomBytes } from 'node:crypto';
import type { EmbeddedFont } from '../../documents/index.js';
import { type PdfValue, textOf } from '../../incoming/index.js';
import { cmsSignDetached, type SigningIdentity, simulatorIdentity } from './cms-signature.js';
import { pdfDate, pdfNumber, pdfText, serializeDict } from './pdf-serialize.js';
import { displayedToUser, type PdfPage, type PdfStructure, readPdfStructure, resolve } from './pdf-structure.js';
import { decodePng, pngFromDataUrl } from './png-image.js';
import type { PdfRect } from './position-rect.js';
import { appearanceContent, BlockFonts, SIGNED_LINE } from './signature-appearance.js';

/** One signer's visible blocks. */
export interface SignerStamp {
  /** The signer's full name, as shown in each block. */
  name: string;
  signedAt: Date;
  /** A drawn signature as a `data:image/png;base64,…` URL; absent for a typed signature (the name in italics). */
  drawing?: string | null;
  /** Where the blocks go, in points on the page as displayed (see toPdfRect and readPdfInfo's sizes). */
  rects: PdfRect[];
}

export interface SignPdfOptions {
  signers: SignerStamp[];
  /** The signature's time (/M and the CMS signing-time); now by default. */
  signingTime?: Date;
  /** Shown by readers as who signed and why. */
  signerName?: string;
  reason?: string;
  location?: string;
  /** The key and certificates to sign with; the local simulator's by default. */
  identity?: SigningIdentity;
}

/** Room kept for the CMS in /Contents: a 2048-bit signature and a chain of a few certificates fit well. */
const CONTENTS_BYTES = 16 * 1024;
const BYTE_RANGE_SLOT = 48;
/** Widget annotation flags: Print (4) and Locked (128). */
const WIDGET_FLAGS = 132;

/**
 * Signs a PDF by incremental update (ISO 32000-1 §7.5.6): the original bytes are kept as they
 * are, then come new objects (a block per position, drawn over its page; the pages rewritten to
 * show them; one invisible signature field; the catalog with its AcroForm; the signature
 * dictionary), a new
 * cross-reference section of the original's kind (a table or a stream) and a trailer whose /Prev
 * points at the original's. The signature is PAdES baseline B: a detached CMS over the whole file
 * but the /Contents hole (/ByteRange).
 */
export function signPdf(pdf: Buffer, options: SignPdfOptions): Buffer {
  const structure = readPdfStructure(pdf);
  const { pages } = structure;
  for (const signer of options.signers) {
    for (const rect of signer.rects) {
      if (![rect.x, rect.y, rect.width, rect.height].every(Number.isFinite) || rect.width <= 0 || rect.height <= 0)
        throw new Error('a signature position needs finite coordinates and a positive width and height');
      if (!Number.isInteger(rect.page) || rect.page < 1 || rect.page > pages.length)
        throw new Error(
          `a signature position is on page ${rect.page}, but the document has ${pages.length} page${pages.length > 1 ? 's' : ''}`,
        );
    }
  }
  const signingTime = options.signingTime ?? new Date();
  const update = new UpdateWriter(structure.size);

  const fonts = new BlockFonts();
  const texts = options.signers.map((signer) => ({
    name: fonts.prepare('bold', signer.name),
    typed: fonts.prepare('regular', signer.name),
    signedLine: fonts.prepare('regular', SIGNED_LINE),
    date: fonts.prepare('regular', formatSignedAt(signer.signedAt)),
  }));
  const field = update.reserve();
  const blocksByPage = new Map<number, { form: number; matrix: number[] }[]>();
  let fontResources = '';
  options.signers.forEach((signer, i) => {
    if (signer.rects.length === 0) return;
    fontResources ||= `/R ${writeFont(update, fonts.embedded().regular)} 0 R /B ${writeFont(update, fonts.embedded().bold)} 0 R`;
    const image = signer.drawing ? addImage(update, signer.drawing) : null;
    for (const rect of signer.rects) {
      const appearance = appearanceContent(rect.width, rect.height, texts[i], fonts, image);
      const xobjects = image ? ` /XObject << /Im0 ${image.ref} 0 R >>` : '';
      const form = update.addStream(
        `/Type /XObject /Subtype /Form /BBox [0 0 ${pdfNumber(rect.width)} ${pdfNumber(rect.height)}] /Resources << /Font << ${fontResources} >>${xobjects} >>`,
        Buffer.from(appearance, 'latin1'),
      );
      const index = rect.page - 1;
      const block = { form, matrix: displayedToUser(pages[index], rect.x, rect.y) };
      blocksByPage.set(index, [...(blocksByPage.get(index) ?? []), block]);
    }
  });

  // The field is its own widget, invisible, on the first page: the blocks are drawn on the pages
  // themselves, so that every viewer prints them and no reader lists one signature per block.
  const signature = update.reserve();
  const fieldName = pdfText(freeFieldName(structure));
  update.set(
    field,
    `<< /FT /Sig /T ${fieldName} /V ${signature} 0 R /Type /Annot /Subtype /Widget /P ${pages[0].ref} 0 R /Rect [0 0 0 0] /F ${WIDGET_FLAGS} >>`,
  );
  const opening = blocksByPage.size > 0 ? update.addStream('', Buffer.from('q\n', 'latin1')) : 0;
  for (const index of new Set([0, ...blocksByPage.keys()])) {
    const page = pages[index];
    const dict = new Map(page.dict);
    if (index === 0) {
      const annots = resolve(structure.objects, dict.get('Annots'));
      const items: PdfValue[] = annots?.kind === 'array' ? [...annots.items] : [];
      dict.set('Annots', { kind: 'array', items: [...items, { kind: 'ref', number: field }] });
    }
    const blocks = blocksByPage.get(index);
    if (blocks) stampPage(update, structure, page, dict, blocks, opening);
    update.set(page.ref, serializeDict(dict));
  }
  update.set(structure.root, serializeDict(catalogWithField(structure, field)));

  const extra = [
    options.signerName ? `/Name ${pdfText(options.signerName)}` : '',
    options.reason ? `/Reason ${pdfText(options.reason)}` : '',
    options.location ? `/Location ${pdfText(options.location)}` : '',
  ].join(' ');
  update.set(
    signature,
    `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached ${'/ByteRange [0 0 0 0]'.padEnd(BYTE_RANGE_SLOT)} /Contents <${'0'.repeat(2 * CONTENTS_BYTES)}> /M ${pdfDate(signingTime)} ${extra}>>`,
  );

  const signed = update.finish(pdf, structure);
  return fillSignature(signed, update.offsetOf(signature), options.identity ?? simulatorIdentity(), signingTime);
}

/**
 * Draws the blocks over a page: its content becomes [`q`, the original streams, `Q` then the
 * blocks], so the original's graphics state cannot move them; the blocks' form XObjects are added
 * to a copy of the page's (possibly inherited) resources, under names the page does not use.
 */
function stampPage(
  update: UpdateWriter,
  structure: PdfStructure,
  page: PdfPage,
  dict: Map<string, PdfValue>,
  blocks: { form: number; matrix: number[] }[],
  opening: number,
): void {
  const found = resolve(structure.objects, page.resources);
  const resources = new Map(found?.kind === 'dict' ? found.entries : []);
  const existing = resolve(structure.objects, resources.get('XObject'));
  const xobjects = new Map(existing?.kind === 'dict' ? existing.entries : []);
  const ops = ['Q'];
  let n = 0;
  for (const block of blocks) {
    let name: string;
    do name = `SigBlock${++n}`;
    while (xobjects.has(name));
    xobjects.set(name, { kind: 'ref', number: block.form });
    ops.push(`q ${block.matrix.map(pdfNumber).join(' ')} cm /${name} Do Q`);
  }
  resources.set('XObject', { kind: 'dict', entries: xobjects });
  dict.set('Resources', { kind: 'dict', entries: resources });
  const contents = dict.get('Contents');
  const target = resolve(structure.objects, contents);
  const original: PdfValue[] =
    contents?.kind === 'array' ? contents.items : target?.kind === 'array' ? target.items : contents ? [contents] : [];
  const stamp = update.addStream('', Buffer.from(`${ops.join('\n')}\n`, 'latin1'));
  dict.set('Contents', {
    kind: 'array',
    items: [{ kind: 'ref', number: opening }, ...original, { kind: 'ref', number: stamp }],
  });
}

/** `26/11/2026 à 11:02 (heure de Paris)`. */
function formatSignedAt(date: Date): string {
  const parts = new Intl.DateTimeFormat('fr-FR', {
    timeZone: 'Europe/Paris',
    dateStyle: 'short',
    timeStyle: 'short',
  }).format(date);
  return `Le ${parts.replace(' ', ' à ')} (heure de Paris)`;
}

/** A Type 0 font with its CIDFontType2 descendant, descriptor, program and ToUnicode; returns the Type 0's number. */
function writeFont(update: UpdateWriter, font: EmbeddedFont): number {
  const program = update.addStream(`/Length1 ${font.length1} /Filter /FlateDecode`, font.fontFile);
  const toUnicode = update.addStream('/Filter /FlateDecode', font.toUnicode);
  const descriptor = update.add(`<< ${font.descriptor} /FontFile2 ${program} 0 R >>`);
  const cidFont = update.add(
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${font.fontName} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${descriptor} 0 R /W ${font.widths} /CIDToGIDMap /Identity >>`,
  );
  return update.add(
    `<< /Type /Font /Subtype /Type0 /BaseFont /${font.fontName} /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${toUnicode} 0 R >>`,
  );
}

function addImage(update: UpdateWriter, dataUrl: string): { ref: number; width: number; height: number } {
  const image = decodePng(pngFromDataUrl(dataUrl));
  const size = `/Width ${image.width} /Height ${image.height} /BitsPerComponent 8`;
  const mask = image.alpha
    ? ` /SMask ${update.addStream(`/Type /XObject /Subtype /Image ${size} /ColorSpace /DeviceGray /Filter /FlateDecode`, image.alpha)} 0 R`
    : '';
  const ref = update.addStream(
    `/Type /XObject /Subtype /Image ${size} /ColorSpace /${image.colorSpace} /Filter /FlateDecode${mask}`,
    image.color,
  );
  return { ref, width: image.width, height: image.height };
}

/** `Signature n` for the first n no top-level field of the AcroForm is named: fields with one name would merge. */
function freeFieldName(structure: PdfStructure): string {
  const catalog = resolve(structure.objects, { kind: 'ref', number: structure.root });
  const acroForm = catalog?.kind === 'dict' ? resolve(structure.objects, catalog.entries.get('AcroForm')) : undefined;
  const fields = acroForm?.kind === 'dict' ? resolve(structure.objects, acroForm.entries.get('Fields')) : undefined;
  const names = new Set<string>();
  for (const item of fields?.kind === 'array' ? fields.items : []) {
    const field = resolve(structure.objects, item);
    const name = field?.kind === 'dict' ? textOf(field.entries.get('T')) : null;
    if (name !== null) names.add(name);
  }
  let n = 1;
  while (names.has(`Signature ${n}`)) n++;
  return `Signature ${n}`;
}

/** The catalog with an AcroForm that lists the new field (after any existing ones) and /SigFlags 3. */
function catalogWithField(structure: PdfStructure, field: number): Map<string, PdfValue> {
  const found = resolve(structure.objects, { kind: 'ref', number: structure.root });
  const catalog = new Map(found?.kind === 'dict' ? found.entries : []);
  const acroForm = resolve(structure.objects, catalog.get('AcroForm'));
  const form = new Map(acroForm?.kind === 'dict' ? acroForm.entries : []);
  const fields = resolve(structure.objects, form.get('Fields'));
  form.set('Fields', {
    kind: 'array',
    items: [...(fields?.kind === 'array' ? fields.items : []), { kind: 'ref', number: field }],
  });
  // SignaturesExist (1) and AppendOnly (2): readers keep later changes as incremental updates.
  form.set('SigFlags', { kind: 'number', value: 3 });
  catalog.set('AcroForm', { kind: 'dict', entries: form });
  return catalog;
}

/** Computes the byte range, signs it and writes the CMS into the /Contents hole. */
function fillSignature(file: Buffer, signatureAt: number, identity: SigningIdentity, signingTime: Date): Buffer {
  const object = file.toString('latin1', signatureAt, signatureAt + 4 * CONTENTS_BYTES);
  const rangeAt = signatureAt + object.indexOf('/ByteRange [');
  const holeStart = signatureAt + object.indexOf('/Contents <') + '/Contents '.length;
  const holeEnd = holeStart + 2 * CONTENTS_BYTES + 2;
  const range = [0, holeStart, holeEnd, file.length - holeEnd];
  file.write(`/ByteRange [${range.join(' ')}]`.padEnd(BYTE_RANGE_SLOT), rangeAt, 'latin1');
  const cms = cmsSignDetached([file.subarray(0, holeStart), file.subarray(holeEnd)], identity, signingTime);
  if (cms.length > CONTENTS_BYTES) throw new Error('the signature does not fit its reserved space');
  file.write(cms.toString('hex').padEnd(2 * CONTENTS_BYTES, '0'), holeStart + 1, 'latin1');
  return file;
}

/** The objects of an incremental update, numbered from the original's /Size, and its cross-reference section. */
class UpdateWriter {
  private readonly bodies = new Map<number, Buffer>();
  private readonly offsets = new Map<number, number>();
  private next: number;

  constructor(size: number) {
    this.next = size;
  }

  reserve(): number {
    return this.next++;
  }

  add(body: string): number {
    const number = this.reserve();
    this.set(number, body);
    return number;
  }

  addStream(entries: string, data: Buffer): number {
    const number = this.reserve();
    this.bodies.set(
      number,
      Buffer.concat([
        Buffer.from(`${number} 0 obj\n<< ${entries} /Length ${data.length} >>\nstream\n`, 'latin1'),
        data,
        Buffer.from('\nendstream\nendobj\n', 'latin1'),
      ]),
    );
    return number;
  }

  /** Writes (or, for an existing number, replaces) an object; generation 0. */
  set(number: number, body: string): void {
    this.bodies.set(number, Buffer.from(`${number} 0 obj\n${body}\nendobj\n`, 'latin1'));
  }

  offsetOf(number: number): number {
    return this.offsets.get(number) as number;
  }

  /** The original bytes, then the objects, then a cross-reference table or stream with /Prev. */
  finish(original: Buffer, structure: PdfStructure): Buffer {
    const last = original[original.length - 1];
    const chunks: Buffer[] = [original];
    let length = original.length;
    const push = (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
    };
    if (last !== 0x0a && last !== 0x0d) push(Buffer.from('\n', 'latin1'));
    for (const [number, body] of [...this.bodies].sort((a, b) => a[0] - b[0])) {
      this.offsets.set(number, length);
      push(body);
    }
    const xrefNumber = structure.xrefKind === 'stream' ? this.reserve() : null;
    const xrefAt = length;
    if (xrefNumber !== null) this.offsets.set(xrefNumber, xrefAt);
    const numbers = [...this.offsets.keys()].sort((a, b) => a - b);
    const groups: { first: number; offsets: number[] }[] = [];
    for (const number of numbers) {
      const group = groups[groups.length - 1];
      if (group && group.first + group.offsets.length === number)
        group.offsets.push(this.offsets.get(number) as number);
      else groups.push({ first: number, offsets: [this.offsets.get(number) as number] });
    }
    const trailer = this.trailerEntries(original, structure);
    if (xrefNumber === null) {
      let table = 'xref\n';
      for (const group of groups) {
        table += `${group.first} ${group.offsets.length}\n`;
        for (const offset of group.offsets) table += `${String(offset).padStart(10, '0')} 00000 n \n`;
      }
      table += `trailer\n<< ${trailer} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
      push(Buffer.from(table, 'latin1'));
    } else {
      const rows = Buffer.alloc(numbers.length * 7);
      numbers.forEach((number, i) => {
        rows[i * 7] = 1;
        rows.writeUInt32BE(this.offsets.get(number) as number, i * 7 + 1);
        rows.writeUInt16BE(0, i * 7 + 5);
      });
      const index = groups.map((g) => `${g.first} ${g.offsets.length}`).join(' ');
      push(
        Buffer.concat([
          Buffer.from(
            `${xrefNumber} 0 obj\n<< /Type /XRef ${trailer} /W [1 4 2] /Index [${index}] /Length ${rows.length} >>\nstream\n`,
            'latin1',
          ),
          rows,
          Buffer.from(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`, 'latin1'),
        ]),
      );
    }
    return Buffer.concat(chunks, length);
  }

  /** /Size, /Root, /Info as before, /ID keeping the original's first part, /Prev. */
  private trailerEntries(original: Buffer, structure: PdfStructure): string {
    const { trailer } = structure;
    const id = trailer.get('ID');
    const first =
      id?.kind === 'array' && id.items[0]?.kind === 'string'
        ? id.items[0].bytes.toString('hex')
        : createHash('md5').update(original).digest('hex');
    const second = createHash('md5').update(original).update(randomBytes(16)).digest('hex');
    const info = trailer.get('Info');
    return [
      `/Size ${this.next}`,
      `/Root ${structure.root} 0 R`,
      info?.kind === 'ref' ? `/Info ${info.number} 0 R` : '',
      `/ID [<${first}> <${second}>]`,
      `/Prev ${structure.startxref}`,
    ]
      .filter(Boolean)
      .join(' ');
  }
}
