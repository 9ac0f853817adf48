import { inputJsonSchemaOverride } from '@app/contracts';
import { z } from 'zod';
import type { RestRoute } from './routes.js';
import type { JsonSchema } from './openapi-types.js';

export const isZodSchema = (parser: unknown): parser is z.core.$ZodType =>
  typeof parser === 'object' && parser !== null && '_zod' in parser;

export const hasType = (schema: JsonSchema | undefined, type: string) =>
  schema?.type === type || (Array.isArray(schema?.type) && schema.type.includes(type));

export const propertiesOf = (schema: JsonSchema) => (schema.properties ?? {}) as Record<string, JsonSchema>;
export const requiredOf = (schema: JsonSchema) => (schema.required ?? []) as string[];

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === '$ref' && typeof item === 'string' ? [item] : refsIn(item),
  );
}

function mapRefs(value: unknown, rename: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => mapRefs(item, rename));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === '$ref' && typeof item === 'string' ? rename(item) : mapRefs(item, rename),
    ]),
  );
}

const componentName = (wanted: string) => wanted.replace(/[^\w.-]/g, '_');

export type SchemaConverter = (schema: z.core.$ZodType, io: 'input' | 'output', rootName: string) => JsonSchema;

/**
 * zod → JSON Schema, with the schema's own `$defs` (schemas given a `.meta({ id })`) and a
 * recursive root (`$ref: '#'`) moved to `components.schemas`: inside the document those refs
 * would resolve against the document's root, not the schema's. A def equal to a component of
 * the same name is shared; a different one (an input and an output of one id) gets a suffix.
 * Inputs take what the contracts declare where zod cannot derive it (contracts' json-schema.ts):
 * a case-insensitive keyword, one value or a list, a format, unique items, a dependent key.
 */
export function schemaConverter(components: Record<string, JsonSchema>): SchemaConverter {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  return (schema, io, rootName) => {
    const converted = z.toJSONSchema(schema, {
      io,
      unrepresentable: 'any',
      ...(io === 'input' ? { override: inputJsonSchemaOverride } : {}),
    }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = converted;
    const defs = Object.entries(($defs ?? {}) as Record<string, JsonSchema>);
    // Every ref is named before anything is placed, so recursive refs point at the final names.
    const names = new Map<string, string>();
    const free = (wanted: string) => {
      const base = componentName(wanted);
      const taken = (name: string) => components[name] !== undefined || [...names.values()].includes(name);
      let name = base;
      for (let n = 2; taken(name); n++) name = `${base}_${n}`;
      return name;
    };
    const rename = (ref: string) => {
      const name = names.get(ref);
      return name === undefined ? ref : `#/components/schemas/${name}`;
    };
    if (refsIn([root, $defs]).includes('#')) names.set('#', free(rootName));
    for (const [id] of defs) names.set(`#/$defs/${id}`, componentName(id));
    for (const [id, def] of defs) {
      const existing = components[componentName(id)];
      if (existing !== undefined && !same(existing, mapRefs(def, rename))) names.set(`#/$defs/${id}`, free(id));
    }
    for (const [id, def] of defs) components[names.get(`#/$defs/${id}`) as string] = mapRefs(def, rename) as JsonSchema;
    const body = mapRefs(root, rename) as JsonSchema;
    const rootComponent = names.get('#');
    if (rootComponent === undefined) return body;
    components[rootComponent] = body;
    return { $ref: `#/components/schemas/${rootComponent}` };
  };
}

/**
 * The procedure's input as one JSON Schema; tRPC merges chained `.input()` objects, so do we,
 * keeping what each says of the whole object (a dependent key, `if`/`then`).
 */
export function inputSchema(route: RestRoute, convert: SchemaConverter): JsonSchema | null {
  const inputs = (route.procedure._def.inputs as unknown[]).filter(isZodSchema);
  if (inputs.length === 0) return null;
  const schemas = inputs.map((input, i) => convert(input, 'input', `${route.procedurePath}.input${i || ''}`));
  if (schemas.length === 1) return schemas[0] as JsonSchema;
  if (!schemas.every((s) => hasType(s, 'object'))) return { allOf: schemas };
  const rest = schemas.map(({ type: _object, properties: _p, required: _r, ...keywords }) => keywords);
  const clash = rest.some((a, i) => rest.some((b, j) => i < j && Object.keys(a).some((k) => k in b)));
  if (clash) return { allOf: schemas };
  return {
    ...Object.assign({}, ...rest),
    type: 'object',
    properties: Object.assign({}, ...schemas.map(propertiesOf)),
    required: [...new Set(schemas.flatMap(requiredOf))],
  };
}
