import type { Direction, FilterValue } from '@app/contracts';
import { literal, Op, type OrderItem, type WhereOptions } from 'sequelize';
import type { Database } from '../db/database.js';

/**
 * The list-query engine: turns the contracts' validated list query into Sequelize `where` and
 * `order`. Column names come only from a resource mapping (never from input); values reach SQL
 * only as bound Sequelize values or through the driver's escaping.
 */

/** The minimal shape every list query has after the contracts' normalisation. */
export interface ListQueryShape {
  q: string | null;
  order: ReadonlyArray<readonly [string, Direction]>;
  filters: Readonly<Record<string, FilterValue | undefined>>;
}

export type FilterHandler = (value: FilterValue, sql: SqlHelpers) => WhereOptions | null;

/**
 * How a resource's list query maps onto its table. Typed by the contract's sort keys and filter
 * names, so a sort or a filter without its column (or handler) does not compile.
 */
export interface ResourceMapping<S extends string = string, F extends string = string> {
  /** Model name, used as the table alias in hand-written subselects. */
  alias: string;
  /** Columns `q` is matched against (case-insensitive substring, any of them). */
  search: readonly string[];
  /** Sort key → column. */
  sorts: Readonly<Record<S | 'id', string>>;
  filters: Readonly<Record<F, FilterHandler>>;
  /** Soft-delete column and how an absent trashed filter behaves (`without`). */
  softDelete?: { column: string; filter: string };
}

export interface SqlHelpers {
  db: Database;
  /** `column LIKE '%value%'`, with `%`, `_` and `\` matched literally, on both engines. */
  contains(column: string, value: string): WhereOptions;
  quote(identifier: string): string;
}

export function sqlHelpers(db: Database, alias: string): SqlHelpers {
  const quote = (identifier: string) => `\`${identifier.replace(/`/g, '')}\``;
  // The escape character itself must be written differently: MySQL string literals treat `\`
  // as an escape (so `'\\'` is one backslash), SQLite's do not (`'\'`).
  const escapeClause = db.dialect === 'mysql' ? "ESCAPE '\\\\'" : "ESCAPE '\\'";
  return {
    db,
    quote,
    contains(column, value) {
      const pattern = `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return literal(`${quote(alias)}.${quote(column)} LIKE ${db.sequelize.escape(pattern)} ${escapeClause}`);
    },
  };
}

/** Generic handlers for the contracts' filter forms, bound to one column. */
export const byKind =
  (column: string, convert: (v: unknown) => unknown = (v) => v): FilterHandler =>
  (value, sql) => {
    switch (value.kind) {
      case 'exact':
        return { [column]: convert(value.value) };
      case 'boolean':
        return { [column]: value.value };
      case 'in':
        return { [column]: { [Op.in]: value.values.map(convert) } };
      case 'contains':
        return sql.contains(column, value.value);
      case 'null':
        return { [column]: value.isNull ? { [Op.is]: null } : { [Op.not]: null } };
      case 'range': {
        const bounds: Record<symbol, unknown> = {};
        if (value.from !== undefined) bounds[Op.gte] = convert(value.from);
        if (value.to !== undefined) bounds[Op.lte] = convert(value.to);
        return Object.getOwnPropertySymbols(bounds).length ? { [column]: bounds } : null;
      }
      case 'trashed':
        return null;
    }
  };

export const toDate = (v: unknown) => new Date(String(v));

/** The filter that picks the soft-delete view: applied from the mapping's `softDelete`, not here. */
export const softDeleteView: FilterHandler = () => null;

/** Every condition of the query (search, filters, soft delete), ANDed. */
export function whereFor(db: Database, mapping: ResourceMapping, query: ListQueryShape): WhereOptions {
  const sql = sqlHelpers(db, mapping.alias);
  const conditions: WhereOptions[] = [];
  if (query.q) {
    const q = query.q;
    conditions.push({ [Op.or]: mapping.search.map((column) => sql.contains(column, q)) });
  }
  for (const [name, value] of Object.entries(query.filters)) {
    if (!value || value.kind === 'trashed') continue;
    const handler = (mapping.filters as Readonly<Record<string, FilterHandler | undefined>>)[name];
    if (!handler) throw new Error(`No handler for filter "${name}"`);
    const condition = handler(value, sql);
    if (condition) conditions.push(condition);
  }
  if (mapping.softDelete) {
    const trashed = query.filters[mapping.softDelete.filter];
    const mode = trashed?.kind === 'trashed' ? trashed.value : 'without';
    const column = mapping.softDelete.column;
    if (mode === 'without') conditions.push({ [column]: { [Op.is]: null } });
    if (mode === 'only') conditions.push({ [column]: { [Op.not]: null } });
  }
  return { [Op.and]: conditions };
}

export function orderFor(mapping: ResourceMapping, query: ListQueryShape): OrderItem[] {
  return query.order.map(([key, dir]) => {
    const column = (mapping.sorts as Readonly<Record<string, string | undefined>>)[key];
    if (!column) throw new Error(`No column for sort "${key}"`);
    return [column, dir.toUpperCase()] as OrderItem;
  });
}

/**
 * Keyset continuation: rows strictly after `last` in the query's order, for batched exports
 * (no OFFSET, so batch 1 000 costs what batch 1 does). Sort columns are NOT NULL, and the
 * order always ends with the unique id.
 */
export function after(mapping: ResourceMapping, query: ListQueryShape, last: Record<string, unknown>): WhereOptions {
  const sorts = mapping.sorts as Readonly<Record<string, string>>;
  const keys = query.order.map(([key, dir]) => ({ column: sorts[key] as string, dir, value: last[key] }));
  const branches: WhereOptions[] = keys.map((key, i) => {
    const equal = keys.slice(0, i).map((k) => ({ [k.column]: k.value }));
    const beyond = { [key.column]: { [key.dir === 'asc' ? Op.gt : Op.lt]: key.value } };
    return { [Op.and]: [...equal, beyond] };
  });
  return { [Op.or]: branches };
}

/** The normalised filters in the plain form a client sends them (for echoing back and chips). */
export function plainFilters(filters: ListQueryShape['filters']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(filters)) {
    if (!value) continue;
    switch (value.kind) {
      case 'exact':
      case 'boolean':
      case 'contains':
      case 'trashed':
        out[name] = value.value;
        break;
      case 'in':
        out[name] = value.values;
        break;
      case 'null':
        out[name] = value.isNull ? 'null' : 'notnull';
        break;
      case 'range':
        out[name] = {
          ...(value.from !== undefined ? { from: value.from } : {}),
          ...(value.to !== undefined ? { to: value.to } : {}),
        };
        break;
    }
  }
  return out;
}
