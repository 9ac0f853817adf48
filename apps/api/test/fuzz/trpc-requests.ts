import type { AnyProcedure, AnyRouter } from '@trpc/server';
import fc from 'fast-check';
import { z } from 'zod';
import { percentEncode, toJsonText } from './fuzz-encoding.js';
import { fromSchema, type SchemaContext } from './fuzz-schema.js';
import { hostileString, hostileValue, type JsonSchema } from './fuzz-values.js';
import { parsedJson, refusedTextIn } from './fuzz-text.js';
import { callerArb, type FuzzRequest, printable } from './fuzz-world.js';
import { rarely } from './rest-requests.js';

/** One procedure of the app router, as the fuzzer reads it. */
export interface TrpcProcedure {
  path: string;
  type: 'query' | 'mutation';
  /** Its input as one JSON Schema (chained `.input()`s merged), with a resolver for its `$defs`; null without input. */
  input: { schema: JsonSchema; resolve: (ref: string) => JsonSchema | undefined } | null;
}

const isZod = (parser: unknown): parser is z.core.$ZodType =>
  typeof parser === 'object' && parser !== null && '_zod' in parser;

/** Every procedure of `router`, read from the router itself (`_def.procedures`). */
export function proceduresOf(router: AnyRouter): TrpcProcedure[] {
  const procedures = router._def.procedures as Record<string, AnyProcedure>;
  return Object.entries(procedures).map(([path, procedure]) => {
    const schemas = (procedure._def.inputs as unknown[])
      .filter(isZod)
      .map((input) => z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
    const defs = Object.assign({}, ...schemas.map((s) => (s.$defs ?? {}) as Record<string, JsonSchema>));
    const roots = schemas.map(({ $defs: _defs, $schema: _dialect, ...rest }) => rest as JsonSchema);
    const schema: JsonSchema | null =
      roots.length === 0
        ? null
        : roots.length === 1
          ? (roots[0] as JsonSchema)
          : {
              type: 'object',
              properties: Object.assign({}, ...roots.map((r) => r.properties ?? {})),
              required: roots.flatMap((r) => (r.required ?? []) as string[]),
            };
    const root = schema;
    const resolve = (ref: string) => (ref === '#' ? (root ?? undefined) : defs[ref.replace('#/$defs/', '')]);
    return { path, type: procedure._def.type as 'query' | 'mutation', input: schema ? { schema, resolve } : null };
  });
}

/** Procedure names that are not one: prototype members, near misses, separators. */
const STRAY_PATHS = [
  '__proto__',
  'constructor',
  'toString',
  'users.__proto__',
  'users.constructor',
  'users.hasOwnProperty',
  'users',
  'users.',
  '.users.list',
  'users..list',
  'users.list.x',
  'USERS.LIST',
  'users.list,',
  ',',
  ',,,',
  'users.list,__proto__',
  'a'.repeat(300),
  `${'users.list,'.repeat(60)}users.list`,
  '%',
];

const RAW_TRPC_BODIES = fc.constantFrom<[string | undefined, string]>(
  ['application/json', ''],
  ['application/json', '{'],
  ['application/json', 'null'],
  ['application/json', '[]'],
  ['application/json', '[1,2]'],
  ['application/json', '{"0":{"json":{}}}'],
  ['application/json', '{"__proto__":{"isAdmin":true}}'],
  ['application/json', '"x"'],
  ['text/plain', '{}'],
  ['application/x-www-form-urlencoded', 'input=%7B%7D'],
  ['multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="0"\r\n\r\n{}\r\n--b--\r\n'],
  [undefined, '{}'],
  ['application/json', `{"pad":"${'x'.repeat(1024 * 1024)}"}`],
);

const TRPC_HEADERS = fc.oneof(
  { weight: 10, arbitrary: fc.constant<Record<string, string>>({}) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Record<string, string>>(
      { 'trpc-accept': 'application/jsonl' },
      { 'trpc-accept': 'x' },
      { 'x-trpc-source': 'fuzz' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'http://evil.test' },
      { accept: 'text/event-stream' },
    ),
  },
);

const OWN_CREDENTIALS = fc.constantFrom<Record<string, string>>(
  { authorization: 'Bearer uat_nope' },
  { authorization: 'Bearer' },
  { cookie: 'sid=nope' },
  { cookie: `sid=${'a'.repeat(4000)}` },
);

interface Call {
  path: string;
  input: string | undefined;
  /** Where its free text breaks the text rule (fuzz-text.ts), or null. */
  refusedText: string | null;
}

function inputArb(procedure: TrpcProcedure, ctx: Omit<SchemaContext, 'resolve'>): fc.Arbitrary<string | undefined> {
  const typed = procedure.input
    ? fromSchema(procedure.input.schema, { ...ctx, resolve: procedure.input.resolve }).map(toJsonText)
    : fc.constant(undefined);
  return fc.oneof(
    { weight: 10, arbitrary: typed },
    { weight: 1, arbitrary: hostileValue.map(toJsonText) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** Requests to tRPC's door: single calls, batches, the wrong method, stray names, odd bodies. */
export function trpcRequest(
  procedures: TrpcProcedure[],
  ctx: Omit<SchemaContext, 'resolve'>,
): fc.Arbitrary<FuzzRequest> {
  const call = (p: TrpcProcedure) =>
    inputArb(p, ctx).map(
      (input): Call => ({
        path: p.path,
        input,
        refusedText: p.input ? refusedTextIn(p.input.schema, parsedJson(input), p.input.resolve) : null,
      }),
    );
  const byType = (type: TrpcProcedure['type']) => procedures.filter((p) => p.type === type);
  const batchOf = (type: TrpcProcedure['type']) =>
    fc.array(fc.oneof(...byType(type).map(call)), { minLength: 1, maxLength: 3 });

  type Shape = { type: TrpcProcedure['type']; calls: Call[]; batch: boolean };
  const single = fc.oneof(
    ...procedures.map((p) => call(p).map((c): Shape => ({ type: p.type, calls: [c], batch: false }))),
  );
  const batch = fc
    .constantFrom<TrpcProcedure['type']>('query', 'mutation')
    .chain((type) => batchOf(type).map((calls): Shape => ({ type, calls, batch: true })));
  const stray = fc
    .tuple(
      fc.oneof(fc.constantFrom(...STRAY_PATHS), hostileString),
      fc.constantFrom<TrpcProcedure['type']>('query', 'mutation'),
    )
    .map(([path, type]): Shape => ({ type, calls: [{ path, input: '{}', refusedText: null }], batch: false }));

  return fc
    .record({
      caller: callerArb,
      shape: fc.oneof(
        { weight: 12, arbitrary: single },
        { weight: 3, arbitrary: batch },
        { weight: 1, arbitrary: stray },
      ),
      wrongMethod: rarely(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), 20),
      rawBody: rarely(RAW_TRPC_BODIES, 15),
      headers: TRPC_HEADERS,
      own: rarely(OWN_CREDENTIALS, 25),
      noBatchFlag: rarely(fc.constant(true), 20),
    })
    .map(({ caller, shape, wrongMethod, rawBody, headers, own, noBatchFlag }) => {
      const names = shape.calls.map((c) => percentEncode(c.path).replace(/%2E/g, '.').replace(/%2C/g, ','));
      const isBatch = shape.batch && noBatchFlag === null;
      const inputText = isBatch
        ? `{${shape.calls.map((c, i) => `"${i}":${c.input ?? 'null'}`).join(',')}}`
        : shape.calls[0]?.input;
      const method = wrongMethod ?? (shape.type === 'query' ? 'GET' : 'POST');
      // One call sent as its type asks, its input as generated: the text rule's verdict holds.
      const refusedText = !shape.batch && !wrongMethod && !rawBody ? (shape.calls[0]?.refusedText ?? null) : null;
      const query: string[] = [];
      if (isBatch) query.push('batch=1');
      const req: FuzzRequest = {
        method,
        url: '',
        headers: { ...headers, ...(own ?? {}) },
        caller,
        target: shape.calls.length === 1 ? `trpc ${shape.calls[0]?.path}` : `trpc batch of ${shape.type}`,
        verdict: { door: 'trpc', batch: isBatch, ...(refusedText ? { refusedText } : {}) },
        ...(own ? { ownCredentials: true } : {}),
      };
      if (method === 'GET') {
        if (inputText !== undefined) query.push(`input=${percentEncode(inputText)}`);
      } else if (rawBody) {
        req.body = rawBody[1];
        if (rawBody[0]) req.headers['content-type'] = rawBody[0];
      } else if (inputText !== undefined) {
        req.body = inputText;
        req.headers['content-type'] = 'application/json';
      }
      req.url = `/api/trpc/${names.join(',')}${query.length ? `?${query.join('&')}` : ''}`;
      return printable(req);
    });
}
