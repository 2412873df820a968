import type { Prng } from './prng.js';

/** One request body of the fuzzer: its bytes, Content-Type, and what it is (printed on failure). */
export interface FuzzBody {
  kind: string;
  detail: string;
  text: string;
  contentType: string | null;
}

type Json = unknown;
type Path = (string | number)[];

/** 10,000 levels, as the brief of the fuzzer asks; JSON.parse itself copes. */
export const DEEP_LEVELS = 10_000;
/** Just under the default JSON body limit (1 MB), so the body is parsed and validated. */
export const HUGE_STRING = 1_000_000;

const ODD_STRINGS = [
  '\ud800',
  'a\udfffb',
  '\u202eevil\u202c',
  '\u200f\u200e\u061c',
  'zero\u200bwidth\ufeff',
  'nul\u0000byte',
  '\u0000',
  'e\u0301\u0301\u0301\u0301',
  '😀👩‍👩‍👧‍👦',
  '\u2028\u2029',
  '\t\r\n',
  ' ',
  '',
  "'; drop table invoices; --",
  '%s%n%x',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '-0',
  '1e308',
  '2026-02-30',
  '2026-13-01',
  '0000-00-00',
  '9999-12-31',
  '-271821-04-20',
  '2026-11-20T25:61:00Z',
  '99999999999999999999',
];

/** Raw JSON number texts that JSON.stringify could not write. */
const ODD_NUMBERS = [
  `1${'0'.repeat(400)}`,
  '-0',
  '1e308',
  '-1e308',
  '1e-400',
  '123456789012345678901234567890.123456789',
  '9007199254740993',
  '0.000000001',
  '-1',
  '1.005',
  '99999999999999.999',
  '2147483648',
];

const HOSTILE_FILLERS = [
  (n: number) => 'a'.repeat(n),
  (n: number) => `${'a'.repeat(n)}|`,
  (n: number) => `${' '.repeat(n)}|`,
  (n: number) => `${'a'.repeat(n)}\n`,
  (n: number) => `${'0'.repeat(n)}x`,
  (n: number) => `${'a.'.repeat(n / 2)}@`,
];

/** Every [path, value] in a JSON value, the root included. */
function walk(value: Json, path: Path = [], out: [Path, Json][] = []): [Path, Json][] {
  out.push([path, value]);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) walk(v, [...path, i], out);
  } else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...path, k], out);
  return out;
}

function setAt(root: Json, path: Path, value: Json): Json {
  if (!path.length) return value;
  let node = root as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  node[path[path.length - 1]!] = value;
  return root;
}

function deleteAt(root: Json, path: Path): void {
  let node = root as Record<string | number, Json>;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else delete node[last];
}

const RAW = (n: number) => `\u0001raw:${n}\u0001`;

/** JSON text of a value where RAW(n) strings stand for raw texts (odd numbers, deep nesting). */
function render(value: Json, raws: string[]): string {
  let text = JSON.stringify(value);
  raws.forEach((raw, n) => {
    text = text.replace(JSON.stringify(RAW(n)), () => raw);
  });
  return text;
}

const JSON_TYPE = 'application/json';
const describe = (path: Path) => (path.length ? path.join('.') : '(root)');

/** The mutations of a valid body; each takes a fresh copy and returns one body. */
export const MUTATIONS: Record<string, (body: Json, rng: Prng) => FuzzBody> = {
  valid: (body) => ({ kind: 'valid', detail: '', text: JSON.stringify(body), contentType: JSON_TYPE }),
  wrongType: (body, rng) => {
    const [path, value] = rng.pick(walk(body).slice(1).length ? walk(body).slice(1) : walk(body));
    const others: Json[] = [42, 'text', true, [], {}, [1, 'a'], { a: 1 }, -1.5].filter(
      (v) => typeof v !== typeof value || Array.isArray(v) !== Array.isArray(value),
    );
    const replacement = rng.pick(others);
    return mutated('wrong type', `${describe(path)} = ${JSON.stringify(replacement)}`, setAt(body, path, replacement));
  },
  nullValue: (body, rng) => {
    const [path] = rng.pick(walk(body));
    return mutated('null', describe(path), setAt(body, path, null));
  },
  missingField: (body, rng) => {
    const fields = walk(body).filter(([path]) => path.length > 0);
    if (!fields.length) return mutated('missing field', '(none)', body);
    const [path] = rng.pick(fields);
    deleteAt(body, path);
    return mutated('missing field', describe(path), body);
  },
  extraField: (body, rng) => {
    const objects = walk(body).filter(([, v]) => v && typeof v === 'object' && !Array.isArray(v));
    const [path, node] = objects.length ? rng.pick(objects) : [[], body];
    const name = rng.pick(['__proto__', 'constructor', 'tenant_id', 'id', 'extra', 'status', 'environment', '']);
    (node as Record<string, Json>)[name] = rng.pick(['x', 1, { admin: true }, null]);
    // `__proto__` set by assignment changes the prototype: write it as a JSON key instead.
    const text =
      name === '__proto__' ? JSON.stringify(body).replace(/^\{/, '{"__proto__":{"admin":true},') : JSON.stringify(body);
    return { kind: 'extra field', detail: `${describe(path)}.${name}`, text, contentType: JSON_TYPE };
  },
  hugeString: (body, rng) => {
    const strings = walk(body).filter(([path, v]) => typeof v === 'string' && path.length > 0);
    const filler = rng.pick(HOSTILE_FILLERS)(HUGE_STRING - JSON.stringify(body).length - 200);
    const [path] = strings.length ? rng.pick(strings) : [['huge']];
    return mutated('huge string', `${describe(path)} (${filler.length} chars)`, setAt(body, path, filler));
  },
  deepNesting: (body, rng) => {
    const fields = walk(body).filter(([path]) => path.length > 0);
    const [path] = fields.length ? rng.pick(fields) : [['deep']];
    const raw = rng.chance(0.5)
      ? `${'['.repeat(DEEP_LEVELS)}${']'.repeat(DEEP_LEVELS)}`
      : `${'{"a":'.repeat(DEEP_LEVELS)}1${'}'.repeat(DEEP_LEVELS)}`;
    return mutated('deep nesting', `${describe(path)} (${DEEP_LEVELS} levels)`, setAt(body, path, RAW(0)), [raw]);
  },
  oddString: (body, rng) => {
    const strings = walk(body).filter(([path, v]) => typeof v === 'string' && path.length > 0);
    const fields = strings.length ? strings : walk(body).filter(([path]) => path.length > 0);
    const [path, value] = fields.length ? rng.pick(fields) : [['odd'], ''];
    const odd = rng.pick(ODD_STRINGS);
    const replacement = rng.chance(0.5) && typeof value === 'string' ? `${value}${odd}` : odd;
    return mutated('odd string', `${describe(path)} = ${JSON.stringify(replacement)}`, setAt(body, path, replacement));
  },
  oddNumber: (body, rng) => {
    const numbers = walk(body).filter(([path, v]) => typeof v === 'number' && path.length > 0);
    const fields = numbers.length ? numbers : walk(body).filter(([path]) => path.length > 0);
    const [path] = fields.length ? rng.pick(fields) : [['odd']];
    const raw = rng.pick(ODD_NUMBERS);
    return mutated('odd number', `${describe(path)} = ${raw}`, setAt(body, path, RAW(0)), [raw]);
  },
  duplicateKey: (body, rng) => {
    const keys = body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : [];
    const key = keys.length ? rng.pick(keys) : 'id';
    const second = JSON.stringify(rng.pick([null, 'other', 0, { nested: true }, []]));
    const text = JSON.stringify(body).replace(/\}$/, `${keys.length ? ',' : ''}${JSON.stringify(key)}:${second}}`);
    return { kind: 'duplicate key', detail: `${key} = ${second}`, text, contentType: JSON_TYPE };
  },
  notJson: (body, rng) => {
    const valid = JSON.stringify(body);
    const text = rng.pick([
      'not json',
      valid.slice(0, Math.max(1, valid.length >> 1)),
      `${valid}garbage`,
      `\ufeff${valid}`,
      '123',
      '"a string"',
      '[]',
      'null',
      'true',
      "{'single': 'quotes'}",
      '{"a":1,}',
      '{"a":NaN}',
      '{"a":undefined}',
      `${valid}${valid}`,
      '',
    ]);
    return { kind: 'not JSON', detail: JSON.stringify(text.slice(0, 40)), text, contentType: JSON_TYPE };
  },
  wrongContentType: (body, rng) => {
    const contentType = rng.pick([
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=fuzz',
      'application/xml',
      null,
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'application/vnd.fuzz+json',
      'application/octet-stream',
    ]);
    const text =
      contentType === 'application/x-www-form-urlencoded'
        ? 'a=1&b[c]=2&__proto__[x]=1'
        : contentType?.startsWith('multipart')
          ? '--fuzz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--fuzz--\r\n'
          : JSON.stringify(body);
    return { kind: 'wrong content type', detail: String(contentType), text, contentType };
  },
};

function mutated(kind: string, detail: string, body: Json, raws: string[] = []): FuzzBody {
  return { kind, detail, text: render(body, raws), contentType: JSON_TYPE };
}
