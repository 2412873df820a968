import type { UploadSpec } from '../../../api/http/route-spec.js';
import type { FuzzBody } from './mutate-body.js';
import type { Prng } from './prng.js';

const BOUNDARY = 'fuzz-boundary-7d1c';

/** Files of every kind a route that takes one may be sent: empty, junk, truncated PDF, hostile XML. */
const FILES: { name: string; type: string; content: string }[] = [
  { name: 'empty.pdf', type: 'application/pdf', content: '' },
  { name: 'junk.bin', type: 'application/octet-stream', content: '\u0000\u0001\u0002garbage' },
  { name: 'cut.pdf', type: 'application/pdf', content: '%PDF-1.7\n1 0 obj << /Type /Catalog' },
  {
    name: 'doctype.xml',
    type: 'application/xml',
    content: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "a">]><x>&a;</x>',
  },
  {
    name: 'plain.xml',
    type: 'text/xml',
    content: '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>',
  },
  { name: '../../etc/passwd', type: 'application/pdf', content: '%PDF-1.4' },
];

/** `lines[0][quantity]`-style fields of a JSON value, as the multipart parser reads them. */
function bracketFields(value: unknown, prefix = '', out: [string, string][] = []): [string, string][] {
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) bracketFields(inner, prefix ? `${prefix}[${key}]` : key, out);
  } else if (prefix) {
    out.push([prefix, String(value)]);
  }
  return out;
}

/**
 * The body as multipart/form-data: the whole JSON in a `payload` field (sometimes broken) or in
 * bracket-notation fields, with a file in the route's file field (or in another one).
 */
export function multipartBody(body: unknown, upload: UploadSpec | undefined, rng: Prng): FuzzBody {
  const parts: string[] = [];
  const field = (name: string, value: string) =>
    parts.push(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const style = rng.pick(['payload', 'brackets', 'broken payload'] as const);
  if (style === 'payload') field('payload', JSON.stringify(body));
  else if (style === 'broken payload') field('payload', rng.pick(['{', '[]', 'null', '"x"', '{"a":1']));
  else for (const [name, value] of bracketFields(body)) field(name, value);
  const file = rng.pick(FILES);
  const fileField = rng.chance(0.8) ? (upload?.field ?? 'file') : 'unexpected';
  if (rng.chance(0.7)) {
    parts.push(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${fileField}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n`,
    );
  }
  return {
    kind: 'multipart',
    detail: `${style}${parts.length > 1 || style !== 'brackets' ? `, file ${file.name} in ${fileField}` : ''}`,
    text: `${parts.join('')}--${BOUNDARY}--\r\n`,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
  };
}
