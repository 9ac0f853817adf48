import {
  type FindOptions,
  literal,
  type Model,
  type ModelStatic,
  type OrderItem,
  QueryTypes,
  type WhereOptions,
} from 'sequelize';
import type { Database } from '../db/database.js';
import { MAY_READ_REPLICA } from '../db/replica-routing.js';

/**
 * The reads every list is made of, for any resource's model: a page of ids (walking the sort's
 * index; a deep OFFSET skips index entries, not rows), a count that stops at a bound, and the
 * SELECT text Sequelize would run, to wrap or to EXPLAIN.
 */

type AnyModel = ModelStatic<Model>;

/** Sequelize's SQL writer: the same WHERE as every other query of the model, as text. */
interface SelectQueryGenerator {
  selectQuery(table: string, options: object, model: object): string;
  getWhereConditions(where: WhereOptions, alias: string, model: object, options: object, prepend: boolean): string;
}

/** The SELECT that `model.findAll(options)` would run, as text. */
export function selectSql(db: Database, model: AnyModel, options: FindOptions): string {
  const generator = db.sequelize.getQueryInterface().queryGenerator as SelectQueryGenerator;
  return generator.selectQuery(model.getTableName() as string, options, model).replace(/;\s*$/, '');
}

/**
 * The conditions of `where` as SQL, columns qualified by the model's alias (as `selectSql` names
 * the table), for a hand-written statement that joins the model's table to another; '' when none.
 */
export function whereSql(db: Database, model: AnyModel, where: WhereOptions): string {
  const generator = db.sequelize.getQueryInterface().queryGenerator as SelectQueryGenerator;
  return generator.getWhereConditions(where, model.name, model, {}, true);
}

/**
 * One page of ids in the query's order. `idColumn` names the column holding the listed row's id
 * when the model is a table of keys (the role keys' `user_id`).
 */
export async function pageIdsOf(
  model: AnyModel,
  where: WhereOptions,
  order: OrderItem[],
  limit: number,
  offset = 0,
  hints: Pick<FindOptions, 'indexHints'> = {},
  idColumn = 'id',
): Promise<number[]> {
  return (await readPage(model, where, order, limit, offset, false, hints, idColumn)).ids;
}

/**
 * One page of ids and the number of rows matching in all (`COUNT(*) OVER ()`, computed in the
 * same pass). The total is null when the page is past the last match (no row carries it).
 */
export function pageIdsWithTotalOf(
  model: AnyModel,
  where: WhereOptions,
  order: OrderItem[],
  limit: number,
  offset: number,
): Promise<{ ids: number[]; total: number | null }> {
  return readPage(model, where, order, limit, offset, true);
}

async function readPage(
  model: AnyModel,
  where: WhereOptions,
  order: OrderItem[],
  limit: number,
  offset: number,
  withTotal: boolean,
  hints: Pick<FindOptions, 'indexHints'> = {},
  idColumn = 'id',
): Promise<{ ids: number[]; total: number | null }> {
  const total = [literal('COUNT(*) OVER ()'), 'total'];
  const id = idColumn === 'id' ? 'id' : [idColumn, 'id'];
  const rows = (await model.findAll({
    attributes: (withTotal ? [id, total] : [id]) as never,
    where,
    order,
    limit,
    offset,
    paranoid: false,
    raw: true,
    ...hints,
    ...MAY_READ_REPLICA,
  })) as unknown as Array<{ id: number | string; total?: number | string }>;
  return {
    ids: rows.map((r) => Number(r.id)),
    total: withTotal && rows.length ? Number(rows[0]?.total) : null,
  };
}

/**
 * How many rows match, counting no further than `limit`: `COUNT(*)` over the matching rows with
 * a LIMIT, so the database stops reading at `limit` matches instead of visiting all of them.
 */
export async function countUpTo(
  db: Database,
  model: AnyModel,
  where: WhereOptions,
  limit: number,
  hints: Pick<FindOptions, 'indexHints'> = {},
): Promise<number> {
  const inner = selectSql(db, model, { attributes: [[db.sequelize.literal('1'), 'one']], where, limit, ...hints });
  const [row] = await db.sequelize.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM (${inner}) AS matching`, {
    type: QueryTypes.SELECT,
    ...MAY_READ_REPLICA,
  });
  return Number(row?.n ?? 0);
}

/** Rows exactly as the driver returns them (no per-row copy): for exports' batches. */
export async function plainRows<T>(db: Database, model: AnyModel, options: FindOptions): Promise<T[]> {
  const [rows] = await db.sequelize.query(selectSql(db, model, options), {
    type: QueryTypes.RAW,
    ...MAY_READ_REPLICA,
  });
  return rows as T[];
}
