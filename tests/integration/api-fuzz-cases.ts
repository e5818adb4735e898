import crypto from 'node:crypto';

/**
 * Bad input for every operation of an OpenAPI document (tests/integration/api-fuzz.test.ts).
 * Pure: the document in, requests out. A case is `invalid` by construction (the answer must
 * be a 4xx with a stable error code) or `tolerated`: noise a read may ignore, or a URL that
 * normalizes to another resource, where only "no 5xx, no change" holds.
 *
 * Unknown keys: zod drops them from non-strict objects (a strict one refuses them), so an
 * extra field alone is a valid request; the cases add extra fields to a body that is missing
 * a required one (or to an otherwise valid body of a strict schema).
 */

export type JsonSchema = {
  type?: string | string[];
  nullable?: boolean;
  format?: string;
  description?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
};

type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; schema?: JsonSchema };

export type Operation = {
  method: string;
  /** The document's path, e.g. `/api/songs/{id}`. */
  path: string;
  parameters: Parameter[];
  /** Request body schema per content type; null when the operation takes no body. */
  body: Record<string, JsonSchema> | null;
};

export type FuzzCase = {
  /** What was sent, for the failure report: `body.email: NUL`. */
  name: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  expect: 'invalid' | 'tolerated';
  /** Sent without the role's credentials: the case brings its own (forged) ones. */
  ownAuth?: boolean;
};

/** A valid file for a multipart file field (chosen by the test from the field's schema). */
export type SampleFile = (name: string, schema: JsonSchema) => { filename: string; data: Buffer };

export type FuzzContext = {
  /** A real value for a path parameter (an existing, owned row where one matters). */
  pathValue: (name: string, schema: JsonSchema | undefined) => string;
  /** A real value for a query parameter where a sample will not do (a URL's signature). */
  queryValue: (op: Operation, name: string) => string | undefined;
  sampleFile: SampleFile;
};

type OpenApiDoc = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
};

const METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete'];

export function operationsOf(doc: OpenApiDoc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const content = op.requestBody?.content;
      out.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: content
          ? Object.fromEntries(Object.entries(content).map(([type, m]) => [type, m.schema ?? {}]))
          : null,
      });
    }
  }
  return out;
}

export const NUL = 'a\u0000b';
/** A lone UTF-16 surrogate: JSON's "\\ud800" escape parses to one; it has no UTF-8 form. */
export const LONE_SURROGATE = 'a\uD800b';
export const LONG = 'x'.repeat(10 * 1024);
/** 10 kB, or one over a field's own maxLength when it allows more (lyrics: 32 KB). */
const longFor = (schema: { maxLength?: number }) =>
  schema.maxLength !== undefined && schema.maxLength >= LONG.length
    ? 'x'.repeat(schema.maxLength + 1)
    : LONG;

const typeOf = (s: JsonSchema): string | undefined => {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  if (s.properties) return 'object';
  if (s.enum) return typeof s.enum[0];
  return undefined;
};

let sampleCounter = 0;

/** A value the schema accepts, as far as the document tells (names hint at emails, passwords). */
export function sampleOf(schema: JsonSchema, name = ''): unknown {
  const branch = schema.anyOf ?? schema.oneOf;
  if (branch?.length) return sampleOf(branch.find((b) => b.type !== 'null') ?? branch[0]!, name);
  if (schema.allOf?.length) return sampleOf(Object.assign({}, ...schema.allOf), name);
  if (schema.enum?.length) return schema.enum[0];
  switch (typeOf(schema)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? [])
        out[key] = sampleOf(schema.properties?.[key] ?? {}, key);
      return out;
    }
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    default: {
      if (schema.format === 'uuid') return crypto.randomUUID();
      if (schema.format === 'email' || /email/i.test(name)) {
        sampleCounter += 1;
        return `fuzz${sampleCounter}-${Date.now().toString(36)}@example.com`;
      }
      if (/password/i.test(name)) return 'secret-pass';
      const min = schema.minLength ?? 0;
      return 'valid'.padEnd(Math.min(Math.max(min, 5), schema.maxLength ?? 5), 'x');
    }
  }
}

/** Values of the wrong type, or out of the schema's range, for one property. */
function badValuesOf(schema: JsonSchema): Array<[string, unknown]> {
  const nullable = schema.nullable || (Array.isArray(schema.type) && schema.type.includes('null'));
  const out: Array<[string, unknown]> = nullable ? [] : [['null', null]];
  switch (typeOf(schema)) {
    case 'object':
      out.push(['string for object', 'x'], ['array for object', []], ['number for object', 1]);
      break;
    case 'array':
      out.push(['object for array', {}], ['string for array', 'x']);
      break;
    case 'boolean':
      out.push(['string for boolean', 'true'], ['number for boolean', 0]);
      break;
    case 'integer':
    case 'number':
      out.push(
        ['string for number', '12'],
        ['object for number', {}],
        ['huge number', 1e308],
        ['negative', -1e9],
      );
      if (typeOf(schema) === 'integer') out.push(['fraction for integer', 1.5]);
      break;
    default:
      out.push(
        ['NUL', NUL],
        ['lone surrogate', LONE_SURROGATE],
        ['10 kB string', longFor(schema)],
        ['number for string', 42],
        ['object for string', { a: 1 }],
        ['array for string', ['x']],
        ['boolean for string', true],
      );
      if (schema.enum) out.push(['not in enum', 'not-a-member']);
      if (schema.format === 'uuid') out.push(['not a uuid', 'not-a-uuid']);
  }
  return out;
}

/** Hostile extra keys: NUL and a lone surrogate in a value and in a key, 10 kB, nesting. */
const EXTRA_FIELDS = {
  unknown_nul: NUL,
  unknown_surrogate: LONE_SURROGATE,
  unknown_long: LONG,
  unknown_nested: { a: [{ b: NUL }] },
  [NUL]: 1,
  [LONE_SURROGATE]: 1,
};

const JSON_TYPE = { 'content-type': 'application/json' };
const MULTIPART_TYPE = 'multipart/form-data; boundary=fuzz';

function without(obj: Record<string, unknown>, key: string) {
  const { [key]: _dropped, ...rest } = obj;
  return rest;
}

function setIn(base: unknown, path: string[], value: unknown): unknown {
  const [head, ...rest] = path;
  const obj = { ...(base as Record<string, unknown>) };
  obj[head!] = rest.length ? setIn(obj[head!] ?? {}, rest, value) : value;
  return obj;
}

/** Bodies no route may accept, whatever it declares: broken JSON, foreign or broken types. */
function anyBodyCases(): Array<[string, Record<string, string>, string | Buffer]> {
  return [
    ['malformed JSON', JSON_TYPE, '{"a":'],
    ['empty JSON body', JSON_TYPE, ''],
    ['JSON with a trailing comma', JSON_TYPE, '{"a":1,}'],
    ['JSON __proto__ key', JSON_TYPE, '{"__proto__":{"admin":true}}'],
    ['JSON constructor.prototype', JSON_TYPE, '{"constructor":{"prototype":{"admin":true}}}'],
    ['invalid UTF-8 in JSON', JSON_TYPE, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
    ['1.5 MB body (over the body limit)', JSON_TYPE, `{"a":"${'x'.repeat(1.5 * 1024 * 1024)}"}`],
    ['text/plain', { 'content-type': 'text/plain' }, '{}'],
    ['application/xml', { 'content-type': 'application/xml' }, '<a/>'],
    ['form-urlencoded', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
    ['content-type with NUL', { 'content-type': 'application/json\u0000' }, '{}'],
    ['content-type garbage', { 'content-type': ';;;=' }, '{}'],
    ['multipart without a boundary', { 'content-type': 'multipart/form-data' }, 'x'],
    ['multipart with an empty boundary', { 'content-type': 'multipart/form-data; boundary=' }, ''],
    [
      'multipart with a 10 kB boundary',
      { 'content-type': `multipart/form-data; boundary=${'b'.repeat(10_000)}` },
      'x',
    ],
    ['multipart with garbage', { 'content-type': MULTIPART_TYPE }, 'garbage, not multipart'],
    [
      'multipart cut short',
      { 'content-type': MULTIPART_TYPE },
      '--fuzz\r\nContent-Disposition: form-data; name="title"\r\n\r\nhal',
    ],
    [
      'multipart file cut short',
      { 'content-type': MULTIPART_TYPE },
      '--fuzz\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nRIFF',
    ],
    ['multipart with no parts', { 'content-type': MULTIPART_TYPE }, '--fuzz--\r\n'],
    [
      'multipart part without a name',
      { 'content-type': MULTIPART_TYPE },
      '--fuzz\r\nContent-Type: text/plain\r\n\r\nhello\r\n--fuzz--\r\n',
    ],
    [
      'multipart part header 10 kB',
      { 'content-type': MULTIPART_TYPE },
      `--fuzz\r\nContent-Disposition: form-data; name="x"\r\nX-Fuzz: ${LONG}\r\n\r\nx\r\n--fuzz--\r\n`,
    ],
  ];
}

function jsonBodyCases(schema: JsonSchema): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const add = (name: string, value: unknown) => out.push([name, JSON.stringify(value)]);
  add('array body', []);
  add('string body', 'x');
  add('number body', 42);
  add('boolean body', true);
  if (!schema.nullable) add('null body', null);
  add('deeply nested body', JSON.parse('['.repeat(2000) + ']'.repeat(2000)));
  if (typeOf(schema) !== 'object') return out;

  const skeleton = sampleOf(schema) as Record<string, unknown>;
  const required = schema.required ?? [];
  if (schema.additionalProperties === false) add('extra fields', { ...skeleton, ...EXTRA_FIELDS });
  else if (required.length)
    add(`extra fields, no ${required[0]}`, { ...without(skeleton, required[0]!), ...EXTRA_FIELDS });

  for (const key of required) add(`body.${key}: missing`, without(skeleton, key));
  // Each property wrong on its own, the rest valid: one level down too (a WebAuthn credential).
  const visit = (props: Record<string, JsonSchema>, at: string[], base: unknown) => {
    for (const [key, prop] of Object.entries(props)) {
      for (const [what, value] of badValuesOf(prop))
        add(`body.${[...at, key].join('.')}: ${what}`, setIn(base, [...at, key], value));
      if (at.length === 0 && prop.properties)
        visit(prop.properties, [key], { ...skeleton, [key]: sampleOf(prop, key) });
    }
  };
  visit(schema.properties ?? {}, [], skeleton);
  return out;
}

type Part =
  | { name: string; value: string }
  | { name: string; filename: string; data: Buffer; contentType?: string };

/** A multipart/form-data body with the boundary `fuzz`. */
export function multipartBody(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      'value' in p
        ? `form-data; name="${p.name}"`
        : `form-data; name="${p.name}"; filename="${p.filename}"`;
    const type =
      'value' in p ? '' : `Content-Type: ${p.contentType ?? 'application/octet-stream'}\r\n`;
    chunks.push(Buffer.from(`--fuzz\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`));
    chunks.push('value' in p ? Buffer.from(p.value) : p.data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from('--fuzz--\r\n'));
  return Buffer.concat(chunks);
}

/**
 * Multipart bodies from the documented fields: each text field bad (NUL, 10 kB) beside valid
 * files, each file field garbage, odd file names, missing, duplicate and unknown parts. A body
 * that could still be valid (odd file names are cleaned, not refused) carries an unknown file
 * part at the end, which every multipart route refuses after reading the rest.
 */
function multipartCases(schema: JsonSchema, sampleFile: SampleFile): Array<[string, Buffer]> {
  const props = Object.entries(schema.properties ?? {});
  const isFile = (s: JsonSchema) => s.format === 'binary';
  const files = props.filter(([, s]) => isFile(s));
  const texts = props.filter(([, s]) => !isFile(s));
  const required = schema.required ?? [];
  const fileOf = (name: string, s: JsonSchema): Part => ({ name, ...sampleFile(name, s) });
  const base = files.filter(([n]) => required.includes(n)).map(([n, s]) => fileOf(n, s));
  const stray: Part = { name: 'fuzz_unknown_file', filename: 'x.bin', data: Buffer.from('x') };
  const out: Array<[string, Buffer]> = [];
  const add = (name: string, parts: Part[]) =>
    out.push([`multipart: ${name}`, multipartBody(parts)]);

  for (const [name, s] of texts) {
    add(`${name} with NUL`, [{ name, value: NUL }, ...base]);
    add(`${name} 10 kB`, [{ name, value: longFor(s) }, ...base]);
    if (s.maxLength !== undefined)
      add(`${name} one over maxLength, after the files`, [
        ...base,
        { name, value: 'y'.repeat(s.maxLength + 1) },
      ]);
    add(`${name} sent as a file`, [{ name, filename: 'a.txt', data: Buffer.from('x') }, ...base]);
  }
  for (const [name, s] of files) {
    const others = base.filter((p) => p.name !== name);
    const valid = fileOf(name, s);
    add(`${name} garbage bytes`, [
      { name, filename: valid.name + '.bin', data: Buffer.from('not what it claims') },
      ...others,
    ]);
    add(`${name} empty`, [
      { name, filename: 'empty.bin', data: Buffer.alloc(0) },
      ...others,
      stray,
    ]);
    add(`${name} sent as text`, [{ name, value: 'x' }, ...others, stray]);
    add(`${name} twice`, [...others, valid, valid]);
    for (const [what, filename] of [
      ['NUL file name', NUL],
      ['10 kB file name', LONG],
      ['traversal file name', '../../../etc/passwd'],
      ['empty file name', ''],
    ]) {
      add(`${name} with a ${what}`, [...others, { ...valid, filename: filename! }, stray]);
    }
    add(`${name} with a NUL content type`, [
      ...others,
      { ...valid, contentType: 'audio/wav\u0000' },
      stray,
    ]);
    if (required.includes(name)) add(`${name} missing`, others);
  }
  add('unknown text fields (NUL name and value, 10 kB)', [
    { name: 'fuzz_extra', value: NUL },
    { name: NUL, value: LONG },
    stray,
  ]);
  add('an unknown file part', [...base, stray]);
  add(
    'too many parts',
    Array.from({ length: 12 }, (_, i) => ({ name: `fuzz${i}`, value: 'x' })),
  );
  return out;
}

/** Raw (already URL-encoded) bad values for a path segment. */
function badPathValues(schema: JsonSchema | undefined, valid: string): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['NUL', '%00'],
    ['NUL inside', 'a%00b'],
    ['valid value then NUL', `${valid}%00`],
    ['10 kB', LONG],
    ['traversal', '..%2F..%2F..%2Fetc%2Fpasswd'],
    ['backslash traversal', '..%5C..%5Cetc%5Cpasswd'],
    ['invalid UTF-8', '%FF%FE'],
    ['broken percent-encoding', '%E0%A4%A'],
    ['space, quotes, angle brackets', "%20'%22%3Cx%3E"],
    ['number', '12345'],
  ];
  if (schema?.format === 'uuid')
    out.push(['uuid with a bad digit', '00000000-0000-0000-0000-00000000000g']);
  return out;
}

/** Raw (already URL-encoded) bad values for a query parameter. */
function badQueryValues(schema: JsonSchema | undefined): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['NUL', '%00'],
    ['NUL inside', 'a%00b'],
    ['10 kB', LONG],
  ];
  const type = schema ? typeOf(schema) : undefined;
  if (type === 'integer' || type === 'number') {
    out.push(
      ['not a number', 'abc'],
      ['fraction', '1.5'],
      ['zero', '0'],
      ['negative', '-1'],
      ['overflow', '1e400'],
      ['huge', '99999999999999999999999'],
      ['empty', ''],
    );
  }
  if (schema?.enum) out.push(['not in enum', 'not-a-member']);
  if (schema?.maxLength !== undefined)
    out.push(['one over maxLength', 'y'.repeat(schema.maxLength + 1)]);
  return out;
}

/**
 * An operation's URL built from real values, and variants with one part replaced. A bad value
 * travels with valid values of everything else, so it reaches as deep as it can (a blank
 * search never queries the database, an unsigned media URL never reaches a file).
 */
function urlsOf(op: Operation, ctx: FuzzContext) {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const query = op.parameters.filter((p) => p.in === 'query');
  const pathWith = (override: Record<string, string> = {}) =>
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (name in override) return override[name]!;
      const p = pathParams.find((x) => x.name === name);
      return encodeURIComponent(ctx.pathValue(name, p?.schema));
    });
  const validQuery = (p: Parameter) =>
    `${p.name}=${encodeURIComponent(ctx.queryValue(op, p.name) ?? String(sampleOf(p.schema ?? {}, p.name)))}`;
  const search = query.map(validQuery).join('&');
  const url = search ? `${pathWith()}?${search}` : pathWith();
  return {
    pathParams,
    query,
    url,
    /** One path segment replaced by a raw (already encoded) value. */
    withPath: (name: string, raw: string) =>
      search ? `${pathWith({ [name]: raw })}?${search}` : pathWith({ [name]: raw }),
    /** One query parameter replaced by a raw value. */
    withQuery: (name: string, raw: string) =>
      `${pathWith()}?${[...query.filter((p) => p.name !== name).map(validQuery), `${name}=${raw}`].join('&')}`,
    /** Raw query text added to the valid URL. */
    plus: (extra: string) => `${url}${search ? '&' : '?'}${extra}`,
  };
}

/** Every bad-input case for one operation. */
export function casesOf(op: Operation, ctx: FuzzContext): FuzzCase[] {
  const { pathParams, query, url, withPath, withQuery, plus } = urlsOf(op, ctx);
  const isRead = op.method === 'GET' || op.method === 'HEAD';
  const cases: FuzzCase[] = [];
  const add = (
    name: string,
    caseUrl: string,
    expect: FuzzCase['expect'],
    extra: Partial<FuzzCase> = {},
  ) => cases.push({ name, method: op.method, url: caseUrl, headers: {}, expect, ...extra });

  for (const p of pathParams) {
    for (const [what, raw] of badPathValues(p.schema, ctx.pathValue(p.name, p.schema)))
      add(`path.${p.name}: ${what}`, withPath(p.name, raw), 'invalid');
    // `..` is resolved while the URL is parsed, before routing (`/media/../x` is `/x`, a page
    // of the web app): another resource, so only "no 5xx" holds for a read.
    for (const [what, raw] of [
      ['dot-dot', '..'],
      ['encoded dot-dot', '%2e%2e'],
    ])
      add(`path.${p.name}: ${what}`, withPath(p.name, raw!), isRead ? 'tolerated' : 'invalid');
  }

  for (const p of query) {
    for (const [what, raw] of badQueryValues(p.schema))
      add(`query.${p.name}: ${what}`, withQuery(p.name, raw), 'invalid');
    add(
      `query.${p.name}: repeated (an array for a scalar)`,
      `${withQuery(p.name, '1')}&${p.name}=2`,
      'invalid',
    );
    // The query parser keeps what does not decode as literal text (`%FF` stays `%FF`).
    for (const [what, raw] of [
      ['invalid UTF-8', '%FF%FE'],
      ['broken percent-encoding', '%E0%A4%A'],
    ])
      add(`query.${p.name}: ${what}`, withQuery(p.name, raw!), 'tolerated');
  }

  if (isRead) {
    // Noise a read may ignore: unknown parameters and odd headers. Anything but a 5xx.
    for (const [what, qs] of [
      ['unknown query with NUL', 'fuzz=%00'],
      ['unknown query 10 kB', `fuzz=${LONG}`],
      ['unknown query, bracket syntax', 'a[b][c]=1&a[]=2'],
      ['query without values', 'flag&&=&=x'],
    ])
      add(what!, plus(qs!), 'tolerated');
    for (const [what, headers] of [
      ['range garbage', { range: 'bytes=%00-zz' }],
      [
        'range, many parts',
        { range: `bytes=${Array.from({ length: 500 }, (_, i) => `${i}-${i}`).join(',')}` },
      ],
      ['if-none-match 10 kB', { 'if-none-match': LONG }],
      ['if-modified-since garbage', { 'if-modified-since': 'not a date' }],
      ['if-range garbage', { 'if-range': '"x', range: 'bytes=0-1' }],
      ['accept garbage', { accept: 'x/y; q=abc' }],
      ['accept-encoding garbage', { 'accept-encoding': 'br;q=x, *;q=-1' }],
    ] as Array<[string, Record<string, string>]>)
      add(what, url, 'tolerated', { headers });
  } else if (op.body) {
    for (const [what, headers, payload] of anyBodyCases())
      add(what, url, 'invalid', { headers, payload });
    const json = op.body['application/json'];
    if (json)
      for (const [what, payload] of jsonBodyCases(json))
        add(what, url, 'invalid', { headers: JSON_TYPE, payload });
    const form = op.body['multipart/form-data'];
    if (form)
      for (const [what, payload] of multipartCases(form, ctx.sampleFile))
        add(what, url, 'invalid', { headers: { 'content-type': MULTIPART_TYPE }, payload });
  }
  return cases;
}

/**
 * Forged credentials instead of a role's: refused (401) on a non-public route, ignored on a
 * public read. A public write gets them with a malformed body (invalid) and with none, where
 * it may act on the forged refresh cookie (refresh, sign-out): anything but a 5xx or a change.
 */
export function credentialCases(op: Operation, ctx: FuzzContext, isPublic: boolean): FuzzCase[] {
  const { url } = urlsOf(op, ctx);
  const isRead = op.method === 'GET' || op.method === 'HEAD';
  const forged: Array<[string, Record<string, string>]> = [
    ['bearer garbage', { authorization: 'Bearer not.a.jwt' }],
    ['bearer of a forged JWT', { authorization: `Bearer ${forgedJwt()}` }],
    ['bearer 10 kB', { authorization: `Bearer ${LONG}` }],
    ['bearer empty', { authorization: 'Bearer ' }],
    ['basic auth', { authorization: 'Basic Zm9vOmJhcg==' }],
    ['cookies with NUL', { cookie: 'canto_access=%00; canto_refresh=%00' }],
    ['cookies 10 kB', { cookie: `canto_access=${LONG}; canto_refresh=${LONG}` }],
    ['malformed cookie header', { cookie: '=;;=; canto_access; canto_refresh=%' }],
  ];
  const cases: FuzzCase[] = [];
  for (const [what, headers] of forged) {
    const base = { method: op.method, url, ownAuth: true };
    if (isRead) {
      cases.push({
        ...base,
        name: `credentials: ${what}`,
        headers,
        expect: isPublic ? 'tolerated' : 'invalid',
      });
      continue;
    }
    cases.push({
      ...base,
      name: `credentials: ${what}, malformed body`,
      headers: { ...headers, ...JSON_TYPE },
      payload: '{"a":',
      expect: 'invalid',
    });
    cases.push({
      ...base,
      name: `credentials: ${what}, no body`,
      headers,
      expect: isPublic ? 'tolerated' : 'invalid',
    });
  }
  return cases;
}

/** A well-formed JWT with `alg: none` and an admin-looking claim: must verify as nothing. */
function forgedJwt(): string {
  const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
  return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: crypto.randomUUID(), roles: ['admin'] })}.`;
}
