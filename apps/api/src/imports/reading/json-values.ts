import { ImportFileError } from './errors.js';
import type { RawRow } from './rows.js';
import type { RowProblem } from './types.js';

/** One element of a JSON array or one NDJSON line: its fields as text, or why it has none. */
export type JsonItem =
  | { line: number; fields: [string, string][]; problem?: RowProblem }
  | { line: number; fields?: undefined; problem: RowProblem };

/** A JSON file naming more distinct keys than this is not a list of people. */
const MAX_KEYS = 1000;

function scalarText(value: unknown): string | undefined {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * An element's fields as text: strings as they are, numbers and booleans as text, null as '',
 * an array of such values (roles, say) joined with `|`. An element that is not an object, or a
 * value nested deeper, is a problem for that row alone.
 */
export function itemOf(line: number, value: unknown): JsonItem {
  const isObject = value instanceof Map || (typeof value === 'object' && value !== null && !Array.isArray(value));
  if (!isObject) {
    return {
      line,
      problem: { code: 'NOT_AN_OBJECT', message: `Item on line ${line} is not an object with named fields.` },
    };
  }
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value as object);
  const fields: [string, string][] = [];
  let nested = false;
  for (const [key, field] of entries) {
    let text = scalarText(field);
    if (text === undefined && Array.isArray(field)) {
      const parts = field.map(scalarText);
      text = parts.every((part) => part !== undefined) ? parts.filter((p) => p !== '').join('|') : undefined;
    }
    if (text === undefined) nested = true;
    fields.push([String(key), text ?? '']);
  }
  return nested
    ? {
        line,
        fields,
        problem: { code: 'NESTED_VALUE', message: `Item on line ${line} has a value nested too deep to import.` },
      }
    : { line, fields };
}

/** Keys in the order they first appear across all items: the file's headers. */
export class KeyOrder {
  readonly keys: string[] = [];
  private readonly index = new Map<string, number>();

  add(item: JsonItem): void {
    for (const [key] of item.fields ?? []) {
      if (this.index.has(key)) continue;
      if (this.keys.length >= MAX_KEYS) {
        throw new ImportFileError('MALFORMED', `The file names more than ${MAX_KEYS} different fields.`);
      }
      this.index.set(key, this.keys.length);
      this.keys.push(key.trim());
    }
  }

  rowOf(item: JsonItem): RawRow {
    const values = new Array<string>(this.keys.length).fill('');
    for (const [key, text] of item.fields ?? []) {
      const at = this.index.get(key);
      if (at !== undefined) values[at] = text;
    }
    return item.problem ? { line: item.line, values, problem: item.problem } : { line: item.line, values };
  }
}
