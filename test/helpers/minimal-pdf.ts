/**
 * A small valid PDF written by hand: one page object per size (points), each with a line of text,
 * and a correct cross-reference table, so that any reader (qpdf, poppler) accepts it.
 */
export function minimalPdf(pages: { width: number; height: number }[] = [{ width: 595, height: 842 }]): Buffer {
  const objects: string[] = [];
  const pageRefs: string[] = [];
  // 1: catalog, 2: page tree, 3: font; then a page and its content stream per page.
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
  pages.forEach((size, i) => {
    const pageNumber = 4 + i * 2;
    const contentNumber = pageNumber + 1;
    const stream = `BT /F1 18 Tf 72 ${size.height - 72} Td (Page ${i + 1} to sign) Tj ET`;
    objects[pageNumber] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${size.width} ${size.height}] ` +
      `/Resources << /Font << /F1 3 0 R >> >> /Contents ${contentNumber} 0 R >>`;
    objects[contentNumber] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
    pageRefs.push(`${pageNumber} 0 R`);
  });
  objects[2] = `<< /Type /Pages /Kids [${pageRefs.join(' ')}] /Count ${pages.length} >>`;

  let out = '%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  for (let n = 1; n < objects.length; n++) {
    offsets[n] = Buffer.byteLength(out, 'latin1');
    out += `${n} 0 obj\n${objects[n]}\nendobj\n`;
  }
  const xrefAt = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let n = 1; n < objects.length; n++) out += `${String(offsets[n]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** The 8-byte signature and IHDR of a PNG: an image, not a PDF. */
export const PNG_BYTES = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000a49444154789c6300010000050001' +
    '0d0a2db40000000049454e44ae426082',
  'hex',
);
