/**
 * The ToUnicode CMap of a subset (ISO 32000-1 §9.10.3): for each CID, the Unicode text it shows.
 * `unicodeByCid[cid]` is a code point; CID 0 (.notdef) and holes map to nothing.
 */
export function buildToUnicodeCMap(unicodeByCid: readonly number[]): Buffer {
  const entries: string[] = [];
  unicodeByCid.forEach((codePoint, cid) => {
    if (cid === 0 || codePoint === undefined) return;
    entries.push(`<${cid.toString(16).padStart(4, '0')}> <${utf16Hex(codePoint)}>`);
  });
  const blocks: string[] = [];
  // at most 100 mappings per bfchar block (Adobe Technical Note #5411)
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    blocks.push(`${block.length} beginbfchar\n${block.join('\n')}\nendbfchar`);
  }
  return Buffer.from(
    [
      '/CIDInit /ProcSet findresource begin',
      '12 dict begin',
      'begincmap',
      '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
      '/CMapName /Adobe-Identity-UCS def',
      '/CMapType 2 def',
      '1 begincodespacerange',
      '<0000> <ffff>',
      'endcodespacerange',
      ...blocks,
      'endcmap',
      'CMapName currentdict /CMap defineresource pop',
      'end',
      'end',
    ].join('\n'),
    'latin1',
  );
}

function utf16Hex(codePoint: number): string {
  return Buffer.from(String.fromCodePoint(codePoint), 'utf16le').swap16().toString('hex');
}
