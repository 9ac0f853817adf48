import { LIST_COUNT_BOUND, type ListMeta } from '@app/contracts';
import { type Model, type ModelStatic, Op, type WhereOptions } from 'sequelize';
import type { Database } from '../db/database.js';
import { type ListQueryShape, orderFor, type ResourceMapping, whereFor } from './list-query-engine.js';
import { countUpTo, pageIdsOf } from './list-reads.js';

/** How many rows a list matches: exact, or (past LIST_COUNT_BOUND) a lower bound. */
export interface ListTotal {
  total: number;
  exact: boolean;
}

/** Which page a list answers, and how long its pages are (the caller's `perPage`, or a resource's cap of it). */
export interface PageAt {
  page: number;
  perPage: number;
}

/** Rows to skip before the page. */
export const pageOffset = (at: PageAt): number => (at.page - 1) * at.perPage;

/**
 * A count taken up to LIST_COUNT_BOUND + 1 as a list total: past the bound, knowing the exact
 * number would cost a scan of every match on each page turn, so the total is the bound (a lower bound).
 */
export function boundedTotal(counted: number): ListTotal {
  return counted > LIST_COUNT_BOUND ? { total: LIST_COUNT_BOUND, exact: false } : { total: counted, exact: true };
}

/** How many rows of `model` match `where`, counted no further than the bound. */
export async function countBounded(db: Database, model: ModelStatic<Model>, where: WhereOptions): Promise<ListTotal> {
  return boundedTotal(await countUpTo(db, model, where, LIST_COUNT_BOUND + 1));
}

/**
 * Every list's answer: the page's rows and its meta. `ids` are the page's ids as read (a row
 * deleted since may be missing from `rows`, but its id still proves a match).
 */
export function listPage<Row>(at: PageAt, counted: ListTotal, ids: readonly number[], rows: Row[]) {
  // A page past the bound proves at least its own rows: a lower bound never says less.
  const total = counted.exact ? counted.total : Math.max(counted.total, pageOffset(at) + ids.length);
  const meta: ListMeta = {
    page: at.page,
    perPage: at.perPage,
    total,
    totalExact: counted.exact,
    pageCount: Math.ceil(total / at.perPage),
  };
  return { rows, meta };
}

/**
 * A plain resource's page through the list engine: the ids in the query's order and the bounded
 * count, read side by side (`scope` narrows every read, e.g. to one parent record).
 */
export async function readListPage(
  db: Database,
  model: ModelStatic<Model>,
  mapping: ResourceMapping,
  query: ListQueryShape & PageAt,
  scope?: WhereOptions,
): Promise<{ ids: number[]; counted: ListTotal }> {
  const filtered = whereFor(db, mapping, query);
  const where = scope ? { [Op.and]: [scope, filtered] } : filtered;
  const [ids, counted] = await Promise.all([
    pageIdsOf(model, where, orderFor(mapping, query), query.perPage, pageOffset(query)),
    countBounded(db, model, where),
  ]);
  return { ids, counted };
}
