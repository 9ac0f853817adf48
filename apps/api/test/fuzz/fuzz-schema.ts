import fc from 'fast-check';
import { withHiddenCharacter } from './fuzz-text.js';
import { DUP_PREFIX, hostileString, hostileValue, type JsonSchema, PROTO_KEYS } from './fuzz-values.js';

// Arbitraries derived from a JSON Schema: well-typed values near its limits, hostile ones mixed in.

export interface SchemaContext {
  /** Resolves a `$ref` of the document the schema came from. */
  resolve(ref: string): JsonSchema | undefined;
  /** Known-good values by property name (seeded e-mails, the test password, versions). */
  hints: Record<string, fc.Arbitrary<unknown>>;
  /** How often a hostile value replaces a well-typed one, 0–1. */
  hostility: number;
}

const typesOf = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : 40;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const edges = [...new Set([min, max, max + 1, Math.max(0, min - 1)])].map((n) => 'x'.repeat(n));
  return fc.oneof(
    { weight: 6, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, 30) }) },
    { weight: 1, arbitrary: fc.constantFrom(...edges) },
    // Every text field, now and then, with a character free text may not hold (fuzz-text.ts).
    { weight: 1, arbitrary: withHiddenCharacter },
  );
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1000;
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : undefined;
  const low = Math.max(exclusiveMin ?? min, -(2 ** 31));
  const high = Math.min(max, 2 ** 31);
  const edges = [low, high, low - 1, high + 1];
  return fc.oneof(
    {
      weight: 6,
      arbitrary: integer
        ? fc.integer({ min: low, max: Math.max(low, Math.min(high, 200)) })
        : fc.double({ noNaN: true }),
    },
    { weight: 1, arbitrary: fc.constantFrom(...edges) },
  );
}

/**
 * An arbitrary for values of `schema`: well-typed values near its limits, and with probability
 * `ctx.hostility` at every node a hostile value instead. Objects get unknown and
 * prototype-touching keys now and then, and a key sent twice.
 */
export function fromSchema(schema: JsonSchema, ctx: SchemaContext, name = '', depth = 0): fc.Arbitrary<unknown> {
  const typed = wellTyped(schema, ctx, name, depth);
  const hint = ctx.hints[name];
  const good = hint ? fc.oneof({ weight: 2, arbitrary: hint }, { weight: 1, arbitrary: typed }) : typed;
  if (ctx.hostility <= 0) return good;
  const weight = Math.max(1, Math.round((1 - ctx.hostility) / ctx.hostility));
  return fc.oneof({ weight, arbitrary: good }, { weight: 1, arbitrary: hostileValue });
}

function wellTyped(schema: JsonSchema, ctx: SchemaContext, name: string, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (typeof schema.$ref === 'string') {
    const target = ctx.resolve(schema.$ref);
    // A recursive schema (zod's JSON type) is any JSON.
    return target && depth < 3 ? wellTyped(target, ctx, name, depth + 1) : fc.jsonValue({ maxDepth: 2 });
  }
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  if ('const' in schema) return fc.constant(schema.const);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length > 0) {
      return fc.oneof(...(options as JsonSchema[]).map((s) => wellTyped(s, ctx, name, depth + 1)));
    }
  }
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as JsonSchema[]).map((s) => wellTyped(s, ctx, name, depth + 1));
    return fc
      .tuple(...parts)
      .map((values) =>
        values.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))
          ? Object.assign({}, ...(values as object[]))
          : values[0],
      );
  }
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(
    ...types.map((type): fc.Arbitrary<unknown> => {
      switch (type) {
        case 'string':
          return stringFor(schema);
        case 'integer':
          return numberFor(schema, true);
        case 'number':
          return numberFor(schema, false);
        case 'boolean':
          return fc.boolean();
        case 'null':
          return fc.constant(null);
        case 'array': {
          const items = (schema.items as JsonSchema | undefined) ?? {};
          const max = typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, 6) : 6;
          const min = typeof schema.minItems === 'number' ? Math.min(schema.minItems, max) : 0;
          return fc.array(fromSchema(items, ctx, name, depth + 1), { minLength: min, maxLength: max });
        }
        default:
          return objectFor(schema, ctx, depth);
      }
    }),
  );
}

function objectFor(schema: JsonSchema, ctx: SchemaContext, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const fields = Object.entries(properties).map(([key, sub]) =>
    fc
      .tuple(
        fc.constant(key),
        // Required fields are mostly present, optional ones about half the time.
        fc.double({ min: 0, max: 1, noNaN: true }),
        fromSchema(sub, ctx, key, depth + 1),
      )
      .map(([k, roll, value]) => (roll < (required.has(k) ? 0.9 : 0.5) ? ([k, value] as const) : null)),
  );
  const extras = fc.oneof(
    { weight: 6, arbitrary: fc.constant([] as Array<readonly [string, unknown]>) },
    {
      weight: 1,
      arbitrary: fc.array(fc.tuple(fc.oneof(hostileString, fc.constantFrom(...PROTO_KEYS)), hostileValue), {
        maxLength: 3,
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...Object.keys(properties), 'x'), hostileValue)
        .map(([k, v]) => [[`${DUP_PREFIX}${k}`, v] as const]),
    },
  );
  return fc.tuple(fc.tuple(...fields), extras, fc.nat(3)).map(([present, extra, roll]) => {
    const o: Record<string, unknown> = {};
    for (const entry of [...present, ...extra]) {
      if (entry) Object.defineProperty(o, entry[0], { value: entry[1], enumerable: true, writable: true });
    }
    // Mostly a password is confirmed, as a form would: otherwise a create never gets through.
    if (roll > 0 && 'password' in o && 'password_confirmation' in properties) o.password_confirmation = o.password;
    return o;
  });
}
