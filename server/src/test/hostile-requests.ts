import fc from 'fast-check';
import { multipart } from './multipart.ts';

/** The part of an OpenAPI (JSON Schema) document these requests are made from. */
export type Schema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  minItems?: number;
  minLength?: number;
  minimum?: number;
};
type Parameter = { in: 'path' | 'query' | 'header'; name: string; schema?: Schema };
type Operation = { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } };
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

export type HostileRequest = {
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
};

/** A route of the document: its method, its path template, what it reads. */
export type DocumentedRoute = { method: string; path: string; operation: Operation };

/** Every route that reads a body, a query, a header or a path parameter. */
export function routesTakingInput(document: OpenApiDocument): DocumentedRoute[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method, operation]) => method !== 'get' || (operation.parameters?.length ?? 0) > 0)
      .map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );
}

const DEEP = (depth: number): unknown => (depth === 0 ? 'bottom' : { a: DEEP(depth - 1) });

/** Values of every wrong kind, for any field: types, sizes, depth, control characters, odd Unicode, numbers out of range, dates that do not exist. */
export const HOSTILE_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, -0.5, 1e308, -1e308, 2 ** 53 + 1, -(2 ** 63), 'NaN', 'Infinity',
  '', ' ', '\u0000', 'a\u0000b', '\u0001\u0008\u000b\u001f\u007f', '\r\n', '\ud800', '\udfff\ud800', '\ufeff', '\u202e',
  'x'.repeat(100_000), '㍿'.repeat(700), 'ﷺ'.repeat(300), 'a'.repeat(3000), 'a b '.repeat(5000),
  '<script>alert(1)</script>', "' or 1=1 --", '%00', '%', '../../etc/passwd', '*', '"', ':*', '&|!()',
  'javascript:alert(1)', 'https://', 'http://[::1', 'fuzz@', '@example.org',
  '2030-02-30T09:00:00Z', '2030-01-01T24:00:00Z', '0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z',
  '+275760-09-13T00:00:00Z', '-271821-04-20T00:00:00Z', '2030-01-01T00:00:00+25:00', 'Mars/Olympus', '../UTC',
  [], [null], ['\u0000'], Array.from({ length: 10_000 }, () => 'x'), [[[[[]]]]], {}, { '\u0000': 1 }, DEEP(40),
];

/** Numbers JSON.stringify cannot write, and keys that could reach an object's prototype: sent as raw JSON text. */
const RAW_VALUES = ['1e400', '-1e400', '123456789012345678901234567890', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}'];

/** Whole bodies that are not what any route reads. */
const HOSTILE_BODIES: Array<[label: string, contentType: string, body: string | Buffer]> = [
  ['empty JSON', 'application/json', ''],
  ['truncated JSON', 'application/json', '{"a":'],
  ['JSON null', 'application/json', 'null'],
  ['JSON array', 'application/json', '[]'],
  ['JSON string', 'application/json', '"text"'],
  ['JSON number', 'application/json', '1e400'],
  ['invalid UTF-8', 'application/json', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d])],
  ['UTF-16 BOM', 'application/json', Buffer.from([0xff, 0xfe, 0x7b, 0x00, 0x7d, 0x00])],
  ['nested 100,000 deep', 'application/json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
  ['proto pollution', 'application/json', '{"__proto__":{"admin":true}}'],
  ['latin1 charset', 'application/json; charset=latin1', '{}'],
  ['text', 'text/plain', 'hello'],
  ['form', 'application/x-www-form-urlencoded', 'a=1&b=%00'],
  ['multipart without boundary', 'multipart/form-data', '--x\r\n\r\n'],
  ['multipart garbage', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\n\u0000\u0000--x'],
];

/** Multipart uploads whose contents are hostile: records full of control characters and oversized words. */
function hostileUploads(): Array<[label: string, fields: Parameters<typeof multipart>[0]]> {
  const book = { id: 'nul\u0000', title: `a\u0000b ${'㍿'.repeat(700)}`, author: '\u0001', identifier: 'isbn:\u0000', publish_date: null, publisher: '', created: null, updated: null, comment: '\u0000<b>x</b>', path: 'a\u0000/b.epub', formats: ['a\u0000/b.epub'] };
  const bookmarks = `<!DOCTYPE NETSCAPE-Bookmark-file-1>\n<DL><p>\n<DT><H3>tag\u0000</H3>\n<DL><p>\n<DT><A HREF="https://example.org/\u0000" ADD_DATE="99999999999999">a\u0000b ${'㍿'.repeat(700)}</A>\n<DD>note\u0001\n</DL><p>\n</DL><p>\n`;
  return [
    ['upload of records with control characters (JSON Lines)', [['name', 'update'], ['file', `${JSON.stringify(book)}\n`, 'books.jsonl']]],
    ['upload of a bookmarks file with control characters', [['file', bookmarks, 'bookmarks.html']]],
    ['upload with a control character in a field', [['name', 'up\u0000date'], ['file', '\u0000', 'x']]],
  ];
}

/** A value the field's schema accepts, as far as a schema tells; `hints` name the values a schema cannot (a time zone, a link). */
export function sampleValue(schema: Schema, name: string, hints: Record<string, unknown>): unknown {
  if (name in hints) return hints[name];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const option = schema.anyOf?.[0] ?? schema.oneOf?.[0];
  if (option) return sampleValue(option, name, hints);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.org';
      if (schema.format === 'date-time') return '2030-01-02T03:04:05Z';
      if (schema.format === 'date') return '2030-01-02';
      if (schema.format === 'uri') return 'https://example.org/fuzz';
      return 'fuzz'.padEnd(schema.minLength ?? 4, 'z');
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleValue(schema.items ?? {}, name, hints));
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, inner]) => [key, sampleValue(inner, key, hints)]));
    default:
      return 'fuzz';
  }
}

/** Every byte of the text's UTF-8 percent-encoded (a lone surrogate becomes U+FFFD, as a browser sends it). */
const percentEncoded = (text: string) => [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');

/** A few more values per field from a seeded generator, so that a run is repeatable. */
function randomValues(seed: number, count: number): unknown[] {
  return fc.sample(fc.oneof(fc.jsonValue(), fc.string({ unit: 'binary', maxLength: 300 })), { seed, numRuns: count });
}

export type RequestOptions = {
  /** The value of a path parameter that names an existing record, by route path; others get "1". */
  pathValues: Record<string, Record<string, string>>;
  hints: Record<string, unknown>;
  /** Body fields left as their hint. */
  skipFields: string[];
  seed: number;
  randomPerField: number;
};

/** Every hostile variant of one route: each path parameter, query parameter, header and body field in turn, then whole bodies. */
export function hostileRequests(route: DocumentedRoute, options: RequestOptions): HostileRequest[] {
  const parameters = route.operation.parameters ?? [];
  const pathValue = (name: string) => options.pathValues[route.path]?.[name] ?? '1';
  const fillPath = (overrides: Record<string, string> = {}) =>
    route.path.replace(/\{(\w+)\}/g, (_, name: string) => overrides[name] ?? percentEncoded(pathValue(name)));
  const bodySchema = route.operation.requestBody?.content['application/json']?.schema;
  const baseBody = bodySchema ? (sampleValue(bodySchema, '', options.hints) as Record<string, unknown>) : undefined;
  const json = { 'content-type': 'application/json' };
  const requests: HostileRequest[] = [];
  const add = (label: string, url: string, extra: Partial<HostileRequest> = {}) =>
    requests.push({ label: `${route.method} ${route.path}: ${label}`, method: route.method, url, headers: {}, ...extra });
  const withBody = baseBody === undefined ? {} : { payload: JSON.stringify(baseBody), headers: json };
  const stringValues = [...HOSTILE_VALUES, ...randomValues(options.seed, options.randomPerField)].map((value) =>
    typeof value === 'string' ? value : JSON.stringify(value),
  );

  for (const parameter of parameters) {
    for (const [i, value] of stringValues.entries()) {
      const label = `${parameter.in} ${parameter.name} #${i}`;
      if (parameter.in === 'path') add(label, fillPath({ [parameter.name]: percentEncoded(value) }), withBody);
      if (parameter.in === 'query') add(label, `${fillPath()}?${new URLSearchParams({ [parameter.name]: value })}`, withBody);
      if (parameter.in === 'header' && /^[\x20-\x7e]*$/.test(value)) add(label, fillPath(), { ...withBody, headers: { ...withBody.headers, [parameter.name]: value } });
    }
    for (const raw of ['%', '%zz', '%ff', '%c0%80', '%ed%a0%80', 'a'.repeat(5000)]) {
      if (parameter.in === 'path') add(`path ${parameter.name} raw ${raw.slice(0, 12)}`, fillPath({ [parameter.name]: raw }), withBody);
      if (parameter.in === 'query') add(`query ${parameter.name} raw ${raw.slice(0, 12)}`, `${fillPath()}?${parameter.name}=${raw}`, withBody);
    }
    if (parameter.in === 'query') {
      add(`query ${parameter.name} repeated`, `${fillPath()}?${parameter.name}=1&${parameter.name}=2`, withBody);
      add(`query ${parameter.name} as an object`, `${fillPath()}?${parameter.name}[a]=1`, withBody);
    }
  }

  if (baseBody !== undefined && typeof baseBody === 'object' && baseBody !== null) {
    const values = [...HOSTILE_VALUES, ...randomValues(options.seed + 1, options.randomPerField)];
    for (const field of [...Object.keys(baseBody), 'unknown_field'].filter((name) => !options.skipFields.includes(name))) {
      for (const [i, value] of values.entries()) {
        add(`body ${field} #${i}`, fillPath(), { headers: json, payload: JSON.stringify({ ...baseBody, [field]: value }) });
      }
      for (const raw of RAW_VALUES) {
        const body = JSON.stringify({ ...baseBody, [field]: '\u0001RAW\u0001' }).replace('"\\u0001RAW\\u0001"', raw);
        add(`body ${field} raw ${raw.slice(0, 16)}`, fillPath(), { headers: json, payload: body });
      }
    }
  }
  if (route.method !== 'GET') {
    for (const [label, contentType, body] of HOSTILE_BODIES) add(label, fillPath(), { headers: { 'content-type': contentType }, payload: body });
    for (const [label, fields] of hostileUploads()) {
      const upload = multipart(fields);
      add(label, fillPath(), { headers: upload.headers, payload: upload.payload });
    }
  }
  return requests;
}
