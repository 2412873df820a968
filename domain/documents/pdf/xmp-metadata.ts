/** What the XMP packet says about the document (ISO 16684-1; PDF/A-3 §6.6). */
export interface XmpFields {
  title: string;
  /** YYYY-MM-DD: creation and modification date (the invoice's issue date, so output is reproducible). */
  date: string;
  /** Set for Factur-X: the fx: properties and the PDF/A extension schema that declares them. */
  facturX: { conformanceLevel: string } | null;
}

/** The Factur-X 1.0 XMP namespace (Factur-X specification §7.3). */
export const FACTURX_NAMESPACE = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';

const FX_PROPERTIES: readonly [string, string][] = [
  ['DocumentFileName', 'The name of the embedded XML document'],
  ['DocumentType', 'The type of the hybrid document in capital letters, e.g. INVOICE or ORDER'],
  ['Version', 'The actual version of the standard applying to the embedded XML document'],
  ['ConformanceLevel', 'The conformance level of the embedded XML document'],
];

// A custom namespace in PDF/A XMP must be described by an extension schema (ISO 19005-3 §6.6.2.3.3)
const FX_EXTENSION_SCHEMA = `<rdf:Description rdf:about="" xmlns:pdfaExtension="http://www.aiim.org/pdfa/ns/extension/" xmlns:pdfaSchema="http://www.aiim.org/pdfa/ns/schema#" xmlns:pdfaProperty="http://www.aiim.org/pdfa/ns/property#">
<pdfaExtension:schemas><rdf:Bag><rdf:li rdf:parseType="Resource">
<pdfaSchema:schema>Factur-X PDFA Extension Schema</pdfaSchema:schema>
<pdfaSchema:namespaceURI>${FACTURX_NAMESPACE}</pdfaSchema:namespaceURI>
<pdfaSchema:prefix>fx</pdfaSchema:prefix>
<pdfaSchema:property><rdf:Seq>
${FX_PROPERTIES.map(
  ([name, description]) =>
    `<rdf:li rdf:parseType="Resource"><pdfaProperty:name>${name}</pdfaProperty:name><pdfaProperty:valueType>Text</pdfaProperty:valueType><pdfaProperty:category>external</pdfaProperty:category><pdfaProperty:description>${description}</pdfaProperty:description></rdf:li>`,
).join('\n')}
</rdf:Seq></pdfaSchema:property>
</rdf:li></rdf:Bag></pdfaExtension:schemas>
</rdf:Description>`;

/**
 * The document's XMP metadata stream: PDF/A-3 conformance B identification, title, dates and
 * producer, plus the Factur-X properties when an invoice XML is embedded. There is no Info
 * dictionary, so nothing else has to agree with these values (PDF/A-3 §6.6.2.3.2).
 */
export function buildXmp(fields: XmpFields): Buffer {
  const date = `${fields.date}T00:00:00+00:00`;
  const facturX = fields.facturX
    ? `${FX_EXTENSION_SCHEMA}
<rdf:Description rdf:about="" xmlns:fx="${FACTURX_NAMESPACE}">
<fx:DocumentType>INVOICE</fx:DocumentType>
<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>
<fx:Version>1.0</fx:Version>
<fx:ConformanceLevel>${escapeXml(fields.facturX.conformanceLevel)}</fx:ConformanceLevel>
</rdf:Description>
`
    : '';
  const xml = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/">
<pdfaid:part>3</pdfaid:part>
<pdfaid:conformance>B</pdfaid:conformance>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
<dc:format>application/pdf</dc:format>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(fields.title)}</rdf:li></rdf:Alt></dc:title>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
<xmp:CreateDate>${date}</xmp:CreateDate>
<xmp:ModifyDate>${date}</xmp:ModifyDate>
<xmp:MetadataDate>${date}</xmp:MetadataDate>
</rdf:Description>
<rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
<pdf:Producer>einvoice-service</pdf:Producer>
</rdf:Description>
${facturX}</rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
  return Buffer.from(xml, 'utf8');
}

function escapeXml(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    // control characters other than tab and line breaks are not allowed in XML 1.0 at all
    if (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) continue;
    out += char === '<' ? '&lt;' : char === '>' ? '&gt;' : char === '&' ? '&amp;' : char === '"' ? '&quot;' : char;
  }
  return out;
}
