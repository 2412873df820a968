import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { EmbeddedFont } from './font-program.js';
import { FACES, type FaceName } from './fonts.js';
import type { LayoutCursor } from './layout-cursor.js';
import { type GlyphsShown, PAGE_HEIGHT, PAGE_WIDTH } from './page-canvas.js';
import { PdfFile, pdfDate, pdfText } from './pdf-file.js';
import { SRGB_ICC_PROFILE } from './srgb-icc-profile.js';
import { buildXmp } from './xmp-metadata.js';

/** A file embedded as an associated file of the document (PDF/A-3 §6.8), e.g. Factur-X's XML. */
export interface PdfAttachment {
  name: string;
  /** MIME type, written as the stream's /Subtype name (`text/xml` → `/text#2Fxml`). */
  mimeType: string;
  description: string;
  relationship: 'Data' | 'Alternative' | 'Source';
  data: Buffer;
}

export interface PdfMetadata {
  title: string;
  /** YYYY-MM-DD: the document's creation date everywhere it is stated. */
  date: string;
  /** Factur-X `fx:ConformanceLevel`, when the attachment is the Factur-X XML. */
  facturXLevel: string | null;
}

const ICC_STREAM = deflateSync(SRGB_ICC_PROFILE);

/**
 * The streams deflated for every document (its page contents, its embedded XML) use zlib's fast
 * level: against the default (6) a 10-line Factur-X is about 500 bytes (1 %) larger and is made
 * about a fifth faster, its two deflates taking about 35 µs each instead of 90. What is deflated
 * once per process (fonts, ICC profile) keeps the default.
 */
const PER_DOCUMENT_DEFLATE = { level: 3 };

/**
 * Serialises laid-out pages as a PDF/A-3 (conformance B) file: fonts embedded (the smallest prepared
 * subset holding the document's characters, its bytes reused; other characters get a subset of
 * their own), an sRGB output intent, XMP metadata, no Info dictionary, no encryption, and the
 * attachment, if any, as an associated file named in the catalog's /AF and /EmbeddedFiles.
 */
export function writePdf(layout: LayoutCursor, metadata: PdfMetadata, attachment: PdfAttachment | null): Buffer {
  const fonts = {
    regular: fontFor('regular', layout.glyphs.regular),
    bold: fontFor('bold', layout.glyphs.bold),
  };
  const pdf = new PdfFile();
  const catalog = pdf.reserve();
  const pages = pdf.reserve();
  const fontRefs = { regular: writeFont(pdf, fonts.regular), bold: writeFont(pdf, fonts.bold) };
  const resources = `<< /Font << /R ${fontRefs.regular} 0 R /B ${fontRefs.bold} 0 R >> >>`;
  const kids: number[] = [];
  for (const page of layout.pages) {
    const pageRef = pdf.reserve();
    const contents = pdf.reserve();
    pdf.stream(
      contents,
      '/Filter /FlateDecode',
      deflateSync(Buffer.from(page.contentStream(fonts), 'latin1'), PER_DOCUMENT_DEFLATE),
    );
    pdf.object(
      pageRef,
      `<< /Type /Page /Parent ${pages} 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources ${resources} /Contents ${contents} 0 R >>`,
    );
    kids.push(pageRef);
  }
  pdf.object(pages, `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`);

  const xmp = pdf.reserve();
  pdf.stream(
    xmp,
    '/Type /Metadata /Subtype /XML',
    buildXmp({ title: metadata.title, date: metadata.date, facturX: toFacturX(metadata) }),
  );
  const icc = pdf.reserve();
  pdf.stream(icc, '/N 3 /Filter /FlateDecode', ICC_STREAM, true);
  const intent = pdf.reserve();
  pdf.object(
    intent,
    `<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB IEC61966-2.1) /DestOutputProfile ${icc} 0 R >>`,
  );

  let files = '';
  if (attachment) {
    const spec = writeAttachment(pdf, attachment, metadata.date);
    files = ` /AF [${spec} 0 R] /Names << /EmbeddedFiles << /Names [${pdfText(attachment.name)} ${spec} 0 R] >> >>`;
  }
  pdf.object(
    catalog,
    `<< /Type /Catalog /Pages ${pages} 0 R /Metadata ${xmp} 0 R /OutputIntents [${intent} 0 R] /Lang (fr-FR)${files} >>`,
  );
  return pdf.finish(catalog);
}

/** The smallest prepared subset holding what the document shows, else one of its own. */
function fontFor(face: FaceName, shown: GlyphsShown): EmbeddedFont {
  const { tiers, commonCodePoints, program } = FACES[face];
  return shown.outside.size === 0 ? tiers[shown.tier] : program.subset([...commonCodePoints, ...shown.outside]);
}

/** The Type 0 font with its CIDFontType2 descendant, descriptor, program and ToUnicode; returns the Type 0's number. */
function writeFont(pdf: PdfFile, font: EmbeddedFont): number {
  const [type0, cidFont, descriptor, program, toUnicode] = [1, 2, 3, 4, 5].map(() => pdf.reserve());
  pdf.stream(program, `/Length1 ${font.length1} /Filter /FlateDecode`, font.fontFile, true);
  pdf.stream(toUnicode, '/Filter /FlateDecode', font.toUnicode, true);
  pdf.object(descriptor, `<< ${font.descriptor} /FontFile2 ${program} 0 R >>`);
  pdf.object(
    cidFont,
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${font.fontName} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${descriptor} 0 R /W ${font.widths} /CIDToGIDMap /Identity >>`,
  );
  pdf.object(
    type0,
    `<< /Type /Font /Subtype /Type0 /BaseFont /${font.fontName} /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${toUnicode} 0 R >>`,
  );
  return type0;
}

/** The embedded file stream and its file specification; returns the filespec's number. */
function writeAttachment(pdf: PdfFile, attachment: PdfAttachment, date: string): number {
  const stream = pdf.reserve();
  const spec = pdf.reserve();
  const subtype = attachment.mimeType.replace('/', '#2F');
  const checksum = createHash('md5').update(attachment.data).digest('hex');
  pdf.stream(
    stream,
    `/Type /EmbeddedFile /Subtype /${subtype} /Filter /FlateDecode /Params << /ModDate ${pdfDate(date)} /Size ${attachment.data.length} /CheckSum <${checksum}> >>`,
    deflateSync(attachment.data, PER_DOCUMENT_DEFLATE),
  );
  const name = pdfText(attachment.name);
  pdf.object(
    spec,
    `<< /Type /Filespec /F ${name} /UF ${name} /Desc ${pdfText(attachment.description)} /AFRelationship /${attachment.relationship} /EF << /F ${stream} 0 R /UF ${stream} 0 R >> >>`,
  );
  return spec;
}

const toFacturX = (metadata: PdfMetadata) =>
  metadata.facturXLevel === null ? null : { conformanceLevel: metadata.facturXLevel };
