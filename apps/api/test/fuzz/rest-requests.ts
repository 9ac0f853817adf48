import fc from 'fast-check';
import { type ListStyle, percentEncode, queryPairs, RAW_QUERY_FRAGMENTS, toJsonText } from './fuzz-encoding.js';
import { fromSchema, type SchemaContext } from './fuzz-schema.js';
import { HOSTILE_STRINGS, hostileNumber, hostileString, hostileValue, type JsonSchema } from './fuzz-values.js';
import { parsedJson, parsedQuery, refusedTextIn } from './fuzz-text.js';
import { type Caller, callerArb, type FuzzRequest, ID_RANGE, printable, versionFor } from './fuzz-world.js';

/** `arb` one time in `oneIn`, otherwise null. */
export const rarely = <T>(arb: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: arb });

/** One operation of the OpenAPI document, as the fuzzer reads it. */
export interface RestOperation {
  method: string;
  /** The document's path, `/api/users/{id}`. */
  path: string;
  operationId: string;
  pathParams: string[];
  queryParams: Array<{ name: string; schema: JsonSchema }>;
  body: JsonSchema | null;
  statuses: ReadonlySet<number>;
}

interface OpenApiDoc {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: { schemas: Record<string, JsonSchema> };
}

/** Every operation of the document the product serves at /api/openapi.json. */
export function operationsOf(doc: OpenApiDoc): RestOperation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => {
      const parameters = (op.parameters ?? []) as Array<{ name: string; in: string; schema: JsonSchema }>;
      const content = (op.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)?.content;
      return {
        method: method.toUpperCase(),
        path,
        operationId: String(op.operationId),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map(({ name, schema }) => ({ name, schema })),
        body: content?.['application/json']?.schema ?? null,
        statuses: new Set(Object.keys(op.responses as object).map(Number)),
      };
    }),
  );
}

export const refResolver = (doc: OpenApiDoc) => (ref: string) =>
  doc.components.schemas[ref.replace('#/components/schemas/', '')];

/** A path segment: mostly an id that may exist, otherwise anything a URL can carry there. */
const segment = fc
  .oneof(
    { weight: 6, arbitrary: fc.integer(ID_RANGE).map(String) },
    // Roles and the first users: the ids most likely to exist.
    { weight: 2, arbitrary: fc.integer({ min: 1, max: 5 }).map(String) },
    { weight: 1, arbitrary: hostileNumber.map(String) },
    {
      weight: 2,
      // Dot segments are left out: the URL parser resolves them before the router sees the path.
      arbitrary: fc.oneof(
        hostileString,
        fc.constantFrom('0', '-1', '1.5', '1e3', '0x10', '01', ' 1', '1 ', '9'.repeat(40)),
      ),
    },
  )
  .filter((s) => s !== '' && !/^\.+$/.test(s));

const LIST_STYLES: ListStyle[] = ['brackets', 'indices', 'repeat'];

const OTHER_HEADERS = fc.oneof(
  { weight: 12, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'http://evil.test' },
      { origin: 'null' },
      { 'x-request-id': 'fuzz-1' },
      { 'x-request-id': '../../etc' },
      { accept: 'text/csv' },
      { accept: '*/*;q=0' },
      { 'accept-encoding': 'gzip, br' },
      { 'x-forwarded-for': '10.0.0.1, 1.1.1.1' },
      { 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'https' },
      { host: 'evil.test' },
      { host: 'a b' },
      { host: '[::1' },
      { host: 'localhost:99999' },
      { host: 'localhost', origin: 'http://localhost:80' },
      { 'content-encoding': 'gzip' },
      { 'content-encoding': 'br, deflate' },
      { 'transfer-encoding': 'chunked' },
      { expect: '100-continue' },
      { 'if-none-match': '*' },
      { range: 'bytes=0-10' },
    ),
  },
);

/** Credentials the fuzzer makes up: nothing they name exists. */
const OWN_CREDENTIALS = fc.constantFrom<Record<string, string>>(
  { authorization: 'Bearer uat_nope' },
  { authorization: 'Bearer ' },
  { authorization: 'Basic YWRtaW46YWRtaW4=' },
  { authorization: 'Bearer \u00ff' },
  { cookie: 'sid=nope' },
  { cookie: 'sid=' },
  { cookie: 'sid=a; sid=b' },
  { cookie: '%%%' },
  { cookie: 'sid=%' },
  { cookie: 'sid=%E0%A4%A' },
  { cookie: 'sid="quoted"' },
  { cookie: 'sid=%F0%9F%98%80' },
  { cookie: `sid=${'a'.repeat(8000)}` },
  { cookie: '__proto__=x; constructor=y; sid=z' },
  { authorization: `Bearer uat_${'a'.repeat(8000)}` },
  { authorization: 'Bearer uat_a b' },
  { authorization: 'bearer\tuat_x' },
  { authorization: 'Bearer uat_x', cookie: 'sid=y' },
);

/** Bodies no JSON encoder writes, each with the media type it is sent as. */
const RAW_BODIES = fc.constantFrom<[string | undefined, string]>(
  ['application/json', ''],
  ['application/json', '{'],
  ['application/json', '{"a":'],
  ['application/json', 'null'],
  ['application/json', '[]'],
  ['application/json', '"text"'],
  ['application/json', '123'],
  ['application/json', 'true'],
  ['application/json', '\ufeff{}'],
  ['application/json', '{"a":1} trailing'],
  ['application/json', '{/* comment */}'],
  ['application/json', "{'single':1}"],
  ['application/json', '{"__proto__":{"isAdmin":true}}'],
  ['application/json', '{"constructor":{"prototype":{"isAdmin":true}}}'],
  ['application/json; charset=utf-16', '{}'],
  ['application/json; charset=latin1', '{}'],
  ['application/JSON', '{}'],
  ['application/merge-patch+json', '{}'],
  ['text/plain', '{}'],
  ['application/x-www-form-urlencoded', 'a=1&ids[]=2'],
  ['multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n'],
  [
    'multipart/form-data',
    '--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nemail\r\n--b--\r\n',
  ],
  ['application/octet-stream', '\u0000\u0001'],
  [undefined, '{}'],
  ['application/json', `{"pad":"${'x'.repeat(1024 * 1024)}"}`],
);

interface Built {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  ownCredentials?: boolean;
}

/**
 * Where the free text `built` sends to `op` breaks the text rule, as the REST door will read it:
 * the query of a GET or DELETE, the JSON body of the others (path parameters win over both).
 */
function refusedTextOf(op: RestOperation, built: Built, resolve: SchemaContext['resolve']): string | null {
  if (op.method === 'GET' || op.method === 'DELETE') {
    const query = { type: 'object', properties: Object.fromEntries(op.queryParams.map((p) => [p.name, p.schema])) };
    return refusedTextIn(query, parsedQuery(built.url), resolve, op.pathParams);
  }
  if (built.headers['content-type'] !== 'application/json') return null;
  return refusedTextIn(op.body, parsedJson(built.body), resolve, op.pathParams);
}

/** Requests for `op`: its path, query and body from its own schemas, with every kind of abuse mixed in. */
export function restRequest(
  op: RestOperation,
  ctx: SchemaContext,
  only: { caller?: fc.Arbitrary<Caller>; segment?: fc.Arbitrary<string> } = {},
): fc.Arbitrary<FuzzRequest> {
  const queryArb = fc.record({
    values: fc.tuple(...op.queryParams.map((p) => fc.option(fromSchema(p.schema, ctx, p.name), { freq: 2 }))),
    style: fc.constantFrom(...LIST_STYLES),
    // Unknown or repeated names: short ones, the long-name case is one of the raw fragments.
    extras: fc.array(
      fc.tuple(
        fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...op.queryParams.map((p) => p.name), 'x', '__proto__')),
        hostileValue,
      ),
      { maxLength: 2 },
    ),
    raw: rarely(fc.constantFrom(...RAW_QUERY_FRAGMENTS), 7),
    duplicate: rarely(fc.constant(true), 8),
  });
  const readsQuery = op.method === 'GET' || op.method === 'DELETE';
  const bodyArb: fc.Arbitrary<{ type: string | undefined; text: string } | undefined> = op.body
    ? fc.oneof(
        {
          weight: 12,
          arbitrary: fromSchema(op.body, { ...ctx, hostility: ctx.hostility / 2 }).map((v) => ({
            type: 'application/json' as string | undefined,
            text: toJsonText(v),
          })),
        },
        { weight: 1, arbitrary: hostileValue.map((v) => ({ type: 'application/json', text: toJsonText(v) })) },
        { weight: 1, arbitrary: RAW_BODIES.map(([type, text]) => ({ type, text })) },
      )
    : fc.oneof(
        { weight: 8, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: hostileValue.map((v) => ({ type: 'application/json', text: toJsonText(v) })) },
        { weight: 1, arbitrary: RAW_BODIES.map(([type, text]) => ({ type, text })) },
      );

  return fc
    .record({
      caller: only.caller ?? callerArb,
      segments: fc.tuple(...op.pathParams.map(() => only.segment ?? segment)),
      query: readsQuery ? queryArb : rarely(queryArb, 10),
      body: bodyArb,
      headers: OTHER_HEADERS,
      own: rarely(OWN_CREDENTIALS, 25),
      lock: fc.option(fc.nat(3), { freq: 2 }),
    })
    .map(({ caller, segments, query, body, headers, own, lock }) => {
      let path = op.path;
      op.pathParams.forEach((name, i) => {
        path = path.replace(`{${name}}`, percentEncode(segments[i] as string));
      });
      const built: Built = { method: op.method, url: path, headers: { ...headers, ...(own ?? {}) } };
      if (own) built.ownCredentials = true;
      if (query) {
        const pairs = op.queryParams.flatMap((p, i) => {
          const value = query.values[i];
          return value === null ? [] : queryPairs(p.name, value, query.style);
        });
        for (const [name, value] of query.extras) pairs.push(...queryPairs(String(name), value, query.style));
        if (query.duplicate !== null && pairs.length > 0) pairs.push(pairs[0] as [string, string]);
        const parts = pairs.map(
          ([k, v]) => `${percentEncode(k).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${percentEncode(v)}`,
        );
        if (query.raw !== null) parts.push(query.raw);
        if (parts.length) built.url += `?${parts.join('&')}`;
      }
      if (body) {
        let text = body.text;
        // An update that may get through: the version the product would expect for this id.
        if (lock !== null && op.body && 'version' in ((op.body.properties as object | undefined) ?? {})) {
          text = text.replace(/"version":"(?:[^"\\]|\\.)*"/, `"version":"${versionFor(segments[0], lock)}"`);
        }
        built.body = text;
        if (body.type) built.headers['content-type'] = body.type;
      }
      const refusedText = refusedTextOf(op, built, ctx.resolve);
      return printable({
        ...built,
        caller,
        target: `${op.method} ${op.path}`,
        verdict: {
          door: 'rest',
          documented: op.statuses,
          procedure: op.operationId,
          ...(refusedText ? { refusedText } : {}),
        },
        ...(built.ownCredentials ? { ownCredentials: true } : {}),
      });
    });
}

/** Paths beside the documented ones: unknown routes, wrong methods, odd spellings. */
export function strayRequest(): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      caller: callerArb,
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
      path: fc.oneof(
        fc.constantFrom(
          '/api',
          '/api/',
          '/api/users/',
          '/api/users//1',
          '/api/users/1/',
          '/api/users/1/edit/x',
          '/api/users/1/active/x',
          '/api/USERS',
          '/api/%75sers',
          '/%61pi/users',
          '/api/users%2F1',
          '/api/users;x=1',
          '/api/users/%',
          '/api/roles',
          '/api/audit/x/y',
          '/api/__proto__',
          '/api/constructor',
          '/api/users/__proto__/edit',
        ),
        hostileString.map((s) => `/api/${percentEncode(s)}`),
        fc.constantFrom(...HOSTILE_STRINGS).map((s) => `/api/users/${percentEncode(s)}/edit`),
      ),
    })
    .map(({ caller, method, path }) =>
      printable({ method, url: path, headers: {}, caller, target: 'stray', verdict: { door: 'rest' } }),
    );
}
