/**
 * The document of the `signature_create` scenario: a valid one-page A4 PDF of about `bytes`, padded
 * with lines of text in one uncompressed content stream, with a correct cross-reference table.
 * Built once per run.
 */
export function onePagePdf(bytes = 50 * 1024): Buffer {
  const lines: string[] = ['BT /F1 9 Tf 40 800 Td 11 TL'];
  for (let n = 1; lines.join('\n').length < bytes - 700; n++) {
    lines.push(`(Article ${n}. Le prestataire execute la mission decrite en annexe, aux conditions convenues.) '`);
  }
  lines.push('ET');
  const stream = lines.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
  let out = '%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
