import type { JsonSchema, OpenApiDocument } from '../../src/rest/openapi.js';
import { isObject } from './openapi-agreement.js';
import { FORMAT_SAMPLES, numberVariants, stringVariants, typesOf } from './openapi-variants.js';

// The agreement test's inputs: the documented examples, then boundary values of every keyword a schema states.

export interface Variant {
  label: string;
  value: unknown;
}

export type Where = 'path' | 'query' | 'body';

const omit = (value: Record<string, unknown>, key: string) => {
  const { [key]: _gone, ...rest } = value;
  return rest;
};

export class CaseMaker {
  constructor(
    private readonly doc: OpenApiDocument,
    private readonly isValid: (schema: JsonSchema, value: unknown) => boolean,
    /** Fields that must carry the same value (a password and its confirmation). */
    private readonly linked: Record<string, string> = {},
  ) {}

  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) return schema;
    const target = this.doc.components.schemas[ref.slice('#/components/schemas/'.length)] ?? {};
    const { $ref: _ref, ...rest } = schema;
    return this.resolve({ ...target, ...rest });
  }

  /** anyOf/oneOf branches, each with the keywords around it. */
  private branches(schema: JsonSchema): JsonSchema[] {
    const { anyOf, oneOf, ...outer } = schema;
    const list = [...((anyOf as JsonSchema[] | undefined) ?? []), ...((oneOf as JsonSchema[] | undefined) ?? [])];
    return list.map((branch) => ({ ...outer, ...this.resolve(branch) }));
  }

  /** n items of `items`, distinct where the schema allows that many. */
  distinct(items: JsonSchema, n: number): unknown[] {
    const s = this.resolve(items);
    const members = Array.isArray(s.enum)
      ? s.enum
      : this.branches(s).flatMap((b) => (Array.isArray(b.enum) ? b.enum : []));
    if (members.length) return Array.from({ length: n }, (_, i) => members[i % members.length]);
    const types = typesOf(s);
    if (types.has('integer') || types.has('number')) {
      const lo =
        typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
      return Array.from({ length: n }, (_, i) => lo + i);
    }
    const first = this.sample(s);
    return Array.from({ length: n }, (_, i) => (typeof first === 'string' ? `${first}${i}` : first));
  }

  /** A value the schema accepts: a documented example first, else one made from its keywords. */
  sample(schema: JsonSchema): unknown {
    const s = this.resolve(schema);
    const candidates: unknown[] = [];
    if (Array.isArray(s.examples)) candidates.push(...s.examples);
    if ('const' in s) candidates.push(s.const);
    if (Array.isArray(s.enum)) candidates.push(...s.enum);
    if (s.default !== undefined) candidates.push(s.default);
    for (const branch of this.branches(s)) if (!typesOf(branch).has('null')) candidates.push(this.sample(branch));
    const types = typesOf(s);
    if (types.has('string')) {
      const min = typeof s.minLength === 'number' ? s.minLength : 1;
      if (typeof s.format === 'string' && FORMAT_SAMPLES[s.format]) candidates.push(FORMAT_SAMPLES[s.format]);
      candidates.push('a'.repeat(Math.max(min, 1)), 'Ann', 'ann@example.com', '2024-05-01', '203.0.113.7');
    }
    if (types.has('integer') || types.has('number')) {
      const lo =
        typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : 1;
      candidates.push(Math.max(lo, 1), lo);
    }
    if (types.has('boolean')) candidates.push(true);
    if (types.has('array')) {
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      const max = typeof s.maxItems === 'number' ? s.maxItems : min;
      candidates.push(this.distinct((s.items as JsonSchema) ?? {}, Math.min(Math.max(min, 1), max)));
    }
    if (types.has('object') || s.properties) {
      const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
      const full = Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, this.sample(p)]));
      candidates.push(full);
      // `oneOf: [{required: [a]}, {required: [b]}]` (ids or a selection): every property but
      // those only the other branches require.
      const oneOf = Array.isArray(s.oneOf) ? (s.oneOf as JsonSchema[]) : [];
      const requiredBy = oneOf.map((b) => new Set(Array.isArray(b.required) ? (b.required as string[]) : []));
      for (const own of requiredBy) {
        const others = new Set(requiredBy.flatMap((r) => (r === own ? [] : [...r])).filter((k) => !own.has(k)));
        candidates.push(Object.fromEntries(Object.entries(full).filter(([k]) => !others.has(k))));
      }
    }
    if (types.has('null')) candidates.push(null);
    return candidates.find((value) => this.isValid(schema, value)) ?? candidates[0];
  }

  /** Boundary values of every keyword `schema` states, around a valid `seed`. */
  variants(schema: JsonSchema, seed: unknown, where: Where, depth = 0): Variant[] {
    const s = this.resolve(schema);
    const out: Variant[] = [{ label: 'a valid value', value: seed }];
    const add = (label: string, value: unknown) => out.push({ label, value });
    for (const branch of this.branches(s)) {
      const branchSeed = this.sample(branch);
      for (const v of this.variants(branch, branchSeed, where, depth)) add(v.label, v.value);
    }
    const types = typesOf(s);
    if (types.has('string')) stringVariants(s, typeof seed === 'string' ? seed : String(this.sample(s)), where, add);
    if (types.has('integer') || types.has('number')) numberVariants(s, typeof seed === 'number' ? seed : 1, where, add);
    if (types.has('boolean')) {
      add('true', true);
      add('false', false);
      add('a word for a boolean', 'yes');
      if (where === 'body') add('"true" as text', 'true');
      if (where === 'body') add('1 for true', 1);
      if (where !== 'body') for (const word of ['1', '0', 'TRUE', 'False']) add(`${word} for a boolean`, word);
    }
    if (types.has('array') && depth < 3) this.arrays(s, seed, where, depth, add);
    if ((types.has('object') || s.properties) && depth < 3) this.objects(s, seed, where, depth, add);
    if (types.size === 0 && this.branches(s).length === 0) {
      // A schema that states nothing accepts anything: probe it with values of every kind.
      add('a word', 'not-a-value');
      add('a negative number', -1);
      add('a list of words', ['not-a-value']);
    }
    if (where === 'body' && depth > 0) add('null', null);
    if (where === 'body' && depth > 0 && !types.has('array')) add('a list', [seed]);
    const seen = new Set<string>();
    return out.filter((v) => {
      const key = v.value === undefined ? 'undefined' : JSON.stringify(v.value);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  private arrays(
    s: JsonSchema,
    seed: unknown,
    where: Where,
    depth: number,
    add: (label: string, value: unknown) => void,
  ) {
    const items = (s.items ?? {}) as JsonSchema;
    const first = Array.isArray(seed) && seed.length ? seed[0] : this.sample(items);
    add('no items', []);
    if (typeof s.minItems === 'number') {
      if (s.minItems > 1) add(`minItems-1 (${s.minItems - 1})`, this.distinct(items, s.minItems - 1));
      add(`minItems (${s.minItems})`, this.distinct(items, s.minItems));
    }
    if (typeof s.maxItems === 'number') {
      add(`maxItems (${s.maxItems})`, this.distinct(items, s.maxItems));
      add(`maxItems+1 (${s.maxItems + 1})`, this.distinct(items, s.maxItems + 1));
    }
    if (!(typeof s.maxItems === 'number' && s.maxItems < 2)) add('an item twice', [first, first]);
    // In a query string one value and a list of one are the same text.
    if (where === 'body') add('one item, not in a list', first);
    for (const v of this.variants(items, first, where, depth + 1)) {
      if (v.value !== undefined) add(`an item: ${v.label}`, [v.value]);
    }
  }

  private objects(
    s: JsonSchema,
    seed: unknown,
    where: Where,
    depth: number,
    add: (label: string, value: unknown) => void,
  ) {
    const properties = (s.properties ?? {}) as Record<string, JsonSchema>;
    const base = isObject(seed) ? seed : {};
    const required = (s.required ?? []) as string[];
    for (const [key, property] of Object.entries(properties)) {
      const partner = this.linked[key];
      const propertySeed = base[key] ?? this.sample(property);
      for (const v of this.variants(property, propertySeed, where, depth + 1)) {
        const next = { ...base, [key]: v.value };
        if (partner && partner in base) next[partner] = v.value;
        add(`${key}: ${v.label}`, next);
      }
      if (key in base) add(`${key} left out`, omit(base, key));
      if (partner)
        add(`${key}: a valid value, ${partner} left out`, omit({ ...base, [key]: this.sample(property) }, partner));
    }
    add('an unknown key', { ...base, zz_unknown: 'x' });
    if (where === 'body' && depth === 0) {
      add('not an object', 'x');
      const minimal = Object.fromEntries(Object.entries(base).filter(([key]) => required.includes(key)));
      add('required keys only', minimal);
      // Each member of an enum beside only the required keys: rules that tie one key to another.
      for (const [key, property] of Object.entries(properties)) {
        const members = this.resolve(property).enum;
        if (required.includes(key) && Array.isArray(members)) {
          for (const member of members)
            add(`required keys only, ${key} ${String(member)}`, { ...minimal, [key]: member });
        }
      }
    }
  }
}
