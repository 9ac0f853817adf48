import { sqlDate } from '../../db/sql-date.js';
import { invalidFilter } from '../scim-error.js';
import type { CompareOp, FilterValue } from './parse.js';
import { FALSE_SQL, type FilterSql, TRUE_SQL } from './sql.js';

/**
 * One filterable attribute: how each operator it takes reads in SQL. Every condition is
 * two-valued (never NULL), so `not (…)` and `ne` also match where the attribute is absent, as
 * RFC 7644 reads them ("not" matches when the expression is not true).
 */
export interface Field {
  label: string;
  /** `top`: the comparison is ANDed at the top of the filter (every match satisfies it). */
  compare(op: CompareOp, value: FilterValue, top?: boolean): string;
  present(): string;
  /** Operators after which the value is a substring of the name or e-mail (the trigram index narrows by it). */
  narrows?: readonly CompareOp[];
}

const ORDER: Record<'gt' | 'ge' | 'lt' | 'le', '>' | '>=' | '<' | '<='> = { gt: '>', ge: '>=', lt: '<', le: '<=' };
const TEXT_OPS: readonly CompareOp[] = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'];
const ORDERED_OPS: readonly CompareOp[] = ['eq', 'ne', 'gt', 'ge', 'lt', 'le'];

function refuseOp(label: string, op: string, takes: readonly string[]): never {
  throw invalidFilter(
    `The attribute "${label}" cannot be filtered with "${op}"; it takes ${[...takes, 'pr'].join(', ')}.`,
  );
}

function assertOp(label: string, op: CompareOp, takes: readonly CompareOp[]): void {
  if (!takes.includes(op)) refuseOp(label, op, takes);
}

export interface TextOptions {
  caseExact?: boolean;
  nullable?: boolean;
  narrows?: readonly CompareOp[];
}

export function textField(sql: FilterSql, label: string, expr: string, opts: TextOptions = {}): Field {
  const caseExact = opts.caseExact ?? false;
  const positive = (op: Exclude<CompareOp, 'ne'>, v: string): string => {
    const cond =
      op === 'co' || op === 'sw' || op === 'ew'
        ? sql.substring(expr, op, v, caseExact)
        : sql.compare(expr, op === 'eq' ? '=' : ORDER[op], v, caseExact);
    const parts = [...(opts.nullable ? [`${expr} IS NOT NULL`] : []), cond];
    return parts.length > 1 ? `(${parts.join(' AND ')})` : cond;
  };
  return {
    label,
    narrows: opts.narrows,
    compare(op, value) {
      assertOp(label, op, TEXT_OPS);
      if (typeof value !== 'string') throw invalidFilter(`The attribute "${label}" is compared with a string.`);
      return op === 'ne' ? `NOT ${positive('eq', value)}` : positive(op, value);
    },
    present: () => (opts.nullable ? `(${expr} IS NOT NULL AND ${expr} <> '')` : `${expr} <> ''`),
  };
}

/** SCIM ids are strings; a user's is its whole number. */
const WHOLE = /^(0|[1-9]\d{0,14})$/;
const wholeNumber = (text: string): number | null => (WHOLE.test(text) ? Number(text) : null);

/**
 * An id attribute: `numberOf` reads the stored number out of the id as SCIM spells it (a user's
 * plain number by default; a Group's is `g7`, scim-group-id.ts). A value it cannot read is
 * no id: it matches nothing. The ordering operators compare the numbers.
 */
export function idField(
  sql: FilterSql,
  label: string,
  expr: string,
  numberOf: (text: string) => number | null = wholeNumber,
): Field {
  return {
    label,
    compare(op, value) {
      assertOp(label, op, ORDERED_OPS);
      const number = typeof value === 'number' || typeof value === 'string' ? numberOf(String(value)) : null;
      if (number === null) return op === 'ne' ? TRUE_SQL : FALSE_SQL;
      const id = sql.value(number);
      return op === 'eq' ? `${expr} = ${id}` : op === 'ne' ? `${expr} <> ${id}` : `${expr} ${ORDER[op as 'gt']} ${id}`;
    },
    present: () => TRUE_SQL,
  };
}

/** Booleans as identity providers send them: true/false, or Entra's "True"/"False". */
function booleanOf(label: string, value: FilterValue): boolean {
  if (typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : '';
  if (text === 'true' || text === 'false') return text === 'true';
  throw invalidFilter(`The attribute "${label}" is compared with true or false.`);
}

/** A boolean; a `nullable` one is absent where NULL: `ne` matches it there, `pr` does not. */
export function booleanField(label: string, expr: string, opts: { nullable?: boolean } = {}): Field {
  return {
    label,
    compare(op, value) {
      assertOp(label, op, ['eq', 'ne']);
      const bit = booleanOf(label, value) ? 1 : 0;
      if (op === 'eq') return `${expr} = ${bit}`;
      return opts.nullable ? `(${expr} IS NULL OR ${expr} <> ${bit})` : `${expr} <> ${bit}`;
    },
    present: () => (opts.nullable ? `${expr} IS NOT NULL` : TRUE_SQL),
  };
}

/** RFC 3339 date-times (xsd:dateTime as RFC 7643 §2.3.5 has it), with a zone. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export function dateField(sql: FilterSql, label: string, expr: string): Field {
  return {
    label,
    compare(op, value) {
      assertOp(label, op, ORDERED_OPS);
      const date = typeof value === 'string' && DATE_TIME.test(value) ? new Date(value) : null;
      if (!date || Number.isNaN(date.getTime())) {
        throw invalidFilter(
          `The attribute "${label}" is compared with an RFC 3339 date-time, such as 2026-01-31T12:00:00Z.`,
        );
      }
      const at = sql.value(sqlDate(sql.db, date));
      return `${expr} ${op === 'eq' ? '=' : op === 'ne' ? '<>' : ORDER[op as 'gt']} ${at}`;
    },
    present: () => TRUE_SQL,
  };
}

/** A sub-attribute every element has the same value of (a user's one e-mail is "work" and primary). */
export function constantField(label: string, actual: string | boolean): Field {
  const truth = (ok: boolean) => (ok ? TRUE_SQL : FALSE_SQL);
  return {
    label,
    compare(op, value) {
      if (typeof actual === 'boolean') {
        assertOp(label, op, ['eq', 'ne']);
        return truth((booleanOf(label, value) === actual) === (op === 'eq'));
      }
      assertOp(label, op, TEXT_OPS);
      if (typeof value !== 'string') throw invalidFilter(`The attribute "${label}" is compared with a string.`);
      const [a, v] = [actual.toLowerCase(), value.toLowerCase()];
      const results: Record<CompareOp, boolean> = {
        eq: a === v,
        ne: a !== v,
        co: a.includes(v),
        sw: a.startsWith(v),
        ew: a.endsWith(v),
        gt: a > v,
        ge: a >= v,
        lt: a < v,
        le: a <= v,
      };
      return truth(results[op]);
    },
    present: () => TRUE_SQL,
  };
}
