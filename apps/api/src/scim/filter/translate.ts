import { ownEntry } from '@app/contracts';
import { invalidFilter } from '../scim-error.js';
import type { Field } from './fields.js';
import type { FilterNode } from './parse.js';

/** A complex attribute (RFC 7643 §2.3.8): its sub-attributes, and where its elements are. */
export interface ComplexAttribute {
  /** Sub-attributes by lower-case name. */
  sub: Readonly<Record<string, Field>>;
  /** The sub-attribute meant when the attribute is named alone (`emails` → `emails.value`). */
  default?: string;
  /** A condition on one element as a condition on the filtered row (EXISTS for elements in another table). */
  element(condition: string): string;
  /** The elements are columns of the filtered row itself (a user's one e-mail): terms found inside still narrow it. */
  sameRow: boolean;
}

/** What a resource type lets a filter name. */
export interface FilterSchema {
  resource: string;
  /** The core schema's URN: an attribute path may be prefixed with it (`urn:…:User:userName`). */
  urn: string;
  simple: Readonly<Record<string, Field>>;
  complex: Readonly<Record<string, ComplexAttribute>>;
  /** A refusal sentence for a path this resource knows but cannot filter by (lower-case path); null otherwise. */
  refuse?: (path: string, asSent: string) => string | null;
}

/**
 * The filter as one SQL condition. `terms` collects the substring values of conditions ANDed at
 * the top (the only ones every match must satisfy) on attributes the trigram index covers.
 */
export function translate(node: FilterNode, schema: FilterSchema, terms: string[] | null): string {
  switch (node.op) {
    case 'and':
      return `(${node.filters.map((f) => translate(f, schema, terms)).join(' AND ')})`;
    case 'or':
      return `(${node.filters.map((f) => translate(f, schema, null)).join(' OR ')})`;
    case 'not':
      return `NOT (${translate(node.filter, schema, null)})`;
    case '[]': {
      const complex = ownEntry(schema.complex, strip(node.path, schema));
      if (!complex) throw unknown(node.path, schema, 'is not a multi-valued or complex attribute');
      const inner: FilterSchema = { resource: schema.resource, urn: schema.urn, simple: complex.sub, complex: {} };
      return complex.element(translate(node.filter, inner, complex.sameRow ? terms : null));
    }
    default: {
      const { field, wrap, sameRow } = resolve(node.path, schema);
      if (node.op === 'pr') return wrap(field.present());
      const value = node.value;
      if (terms && sameRow && field.narrows?.includes(node.op) && typeof value === 'string') {
        if (Array.from(value).length >= 3 && !terms.includes(value)) terms.push(value);
      }
      return wrap(field.compare(node.op, value, terms !== null && sameRow));
    }
  }
}

/** The path without the core schema's URN, lower-case (attribute names ignore case, RFC 7643 §2.1). */
function strip(path: string, schema: FilterSchema): string {
  const lower = path.toLowerCase();
  const prefix = `${schema.urn.toLowerCase()}:`;
  return lower.startsWith(prefix) ? lower.slice(prefix.length) : lower;
}

function resolve(
  asSent: string,
  schema: FilterSchema,
): { field: Field; wrap: (c: string) => string; sameRow: boolean } {
  const path = strip(asSent, schema);
  const refusal = schema.refuse?.(path, asSent);
  if (refusal) throw invalidFilter(refusal);
  const simple = ownEntry(schema.simple, path);
  if (simple) return { field: simple, wrap: (c) => c, sameRow: true };
  const dot = path.indexOf('.');
  const [head, sub] = dot < 0 ? [path, undefined] : [path.slice(0, dot), path.slice(dot + 1)];
  const complex = ownEntry(schema.complex, head);
  const field = complex && ownEntry(complex.sub, sub ?? complex.default ?? '');
  if (!complex || !field) throw unknown(asSent, schema, 'is not a filterable attribute');
  return { field, wrap: (c) => complex.element(c), sameRow: complex.sameRow };
}

function unknown(asSent: string, schema: FilterSchema, why: string) {
  return invalidFilter(`The attribute "${asSent}" ${why} of the SCIM ${schema.resource} resource here.`);
}
