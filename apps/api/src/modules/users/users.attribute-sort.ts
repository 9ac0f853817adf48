import { IndexHints, literal, Op, type OrderItem, QueryTypes, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import type { AttributeScope, AttributeTarget, StoredScalar } from '../../domain/attributes.list-query.js';
import { MAY_READ_REPLICA } from '../../db/replica-routing.js';
import { whereSql } from '../../query/list-reads.js';
import { pageIds } from './users.read-repository.js';
import { holderStateSql, holdersSql as valueHoldersSql, type TrashMode } from './users.attributes-query.js';

/**
 * Users sorted by a custom attribute (SPEC §14), walking the attribute's (attribute_id, value,
 * user_live) index: its entries carry the user id (the table's key), so for one trash state the
 * index's order is (value, id) already and a page stops after its rows, in either direction. A
 * list of live and deleted users together walks both states and merges the two (each no further
 * than the page's end). Users holding no value come
 * after every user holding one, whichever the direction (as an empty cell sorts last in a
 * spreadsheet), in id order of the same direction: they are read from the users' own index once
 * the holders run out.
 */

type Dir = 'asc' | 'desc';

const INDEX: Record<AttributeTarget['column'], string> = {
  text_value: 'user_attribute_values_text',
  number_value: 'user_attribute_values_number',
};

/** The holders of `target` matching `where`, in (value, id) order; `extra` narrows further. */
function holdersSql(db: Database, target: AttributeTarget, where: WhereOptions, extra = '') {
  const mysql = db.dialect === 'mysql';
  // MariaDB: the value index first, then each user by its key (STRAIGHT_JOIN keeps that order,
  // or the optimizer may scan users and sort); SQLite keeps a CROSS JOIN's order the same way.
  const from = mysql
    ? `user_attribute_values AS s FORCE INDEX (${INDEX[target.column]}) STRAIGHT_JOIN users AS \`User\``
    : 'user_attribute_values AS s CROSS JOIN users AS `User`';
  const conditions = whereSql(db, db.models.User, where);
  return `FROM ${from} ON \`User\`.\`id\` = s.user_id
   WHERE s.attribute_id = ${Number(target.id)} AND s.${target.column} IS NOT NULL${extra}${conditions ? ` AND (${conditions})` : ''}`;
}

/** The users holding no value of `target`: one probe of the primary key (attribute_id, user_id) each. */
export const withoutValue = (target: AttributeTarget): WhereOptions =>
  literal(
    `NOT EXISTS (SELECT 1 FROM user_attribute_values s WHERE s.attribute_id = ${Number(target.id)} AND s.user_id = \`User\`.\`id\`)`,
  );

/** A row of the holders' walk: the user and the value it is sorted by. */
interface Held {
  id: number;
  value: StoredScalar;
}

async function holders(
  db: Database,
  target: AttributeTarget,
  where: WhereOptions,
  dir: Dir,
  page: { limit: number; offset: number; trash: TrashMode; after?: Held },
): Promise<Held[]> {
  const d = dir === 'desc' ? 'DESC' : 'ASC';
  const cmp = dir === 'desc' ? '<' : '>';
  const col = `s.${target.column}`;
  const after = page.after
    ? ` AND (${col} ${cmp} :afterValue OR (${col} = :afterValue AND s.user_id ${cmp} :afterId))`
    : '';
  const walk = (mode: TrashMode) =>
    `SELECT s.user_id AS id, ${col} AS value ${holdersSql(db, target, where, `${after} AND ${holderStateSql('s', mode)}`)}
     ORDER BY ${col} ${d}, s.user_id ${d}`;
  // SQLite compares a derived column in binary: the merge orders text as its index does (NOCASE).
  const merged = target.column === 'text_value' && db.dialect === 'sqlite' ? 'value COLLATE NOCASE' : 'value';
  const sql =
    page.trash === 'with'
      ? `SELECT id, value FROM (SELECT * FROM (${walk('without')} LIMIT :end) AS l
           UNION ALL SELECT * FROM (${walk('only')} LIMIT :end) AS o) AS h
         ORDER BY ${merged} ${d}, id ${d} LIMIT :limit OFFSET :offset`
      : `${walk(page.trash)} LIMIT :limit OFFSET :offset`;
  const rows = await db.sequelize.query<{ id: number | string; value: string | number }>(sql, {
    type: QueryTypes.SELECT,
    replacements: {
      limit: page.limit,
      offset: page.offset,
      end: page.offset + page.limit,
      ...(page.after ? { afterValue: page.after.value, afterId: page.after.id } : {}),
    },
    ...MAY_READ_REPLICA,
  });
  return rows.map((r) => ({ id: Number(r.id), value: target.column === 'number_value' ? Number(r.value) : r.value }));
}

async function countHolders(
  db: Database,
  target: AttributeTarget,
  where: WhereOptions,
  trash: TrashMode,
): Promise<number> {
  const [row] = await db.sequelize.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n ${holdersSql(db, target, where, ` AND ${holderStateSql('s', trash)}`)}`,
    { type: QueryTypes.SELECT, ...MAY_READ_REPLICA },
  );
  return Number(row?.n ?? 0);
}

/** Users without a value walk the users' (deleted_at, id) index, as the list by id does. */
function emptyHints(db: Database, trash: TrashMode) {
  return db.dialect === 'mysql' && trash === 'without'
    ? { indexHints: [{ type: IndexHints.FORCE, values: ['users_deleted_id'] }] }
    : {};
}

/**
 * At most this many candidates, a value filter's users are read and sorted rather than the sort's
 * index walked: walking finds a rare value's holders only after most of the index (a unique
 * employee number sorted by start date walked a million entries for one row).
 */
const SORT_CANDIDATES_MAX = 20_000;

/**
 * How many users the query's most selective value filter (`in` or a range: read from the
 * (attribute_id, value) index alone) lets through, counted no further than the bound; null when
 * it has none.
 */
async function fewestCandidates(db: Database, scope: AttributeScope, trash: TrashMode): Promise<number | null> {
  let fewest: number | null = null;
  for (const c of scope.conditions) {
    if (c.op !== 'in' && c.op !== 'range') continue;
    const [row] = await db.sequelize.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM (${valueHoldersSql(db, c, trash)} LIMIT ${SORT_CANDIDATES_MAX + 1}) AS candidates`,
      { type: QueryTypes.SELECT, ...MAY_READ_REPLICA },
    );
    const n = Number(row?.n ?? 0);
    fewest = fewest === null ? n : Math.min(fewest, n);
  }
  return fewest;
}

/**
 * One page of ids sorted by `target`: the holders' part of it, then, when the holders run out on
 * this page, the users without a value. Counting the holders is needed only for a page that
 * starts past the last holder.
 */
async function attributeSortedPage(
  db: Database,
  target: AttributeTarget,
  where: WhereOptions,
  dir: Dir,
  page: { limit: number; offset: number; trash: TrashMode },
): Promise<number[]> {
  const held = (await holders(db, target, where, dir, page)).map((h) => h.id);
  if (held.length === page.limit) return held;
  const before =
    held.length > 0 || page.offset === 0
      ? page.offset + held.length
      : await countHolders(db, target, where, page.trash);
  const rest = await pageIds(
    db,
    { [Op.and]: [where, withoutValue(target)] },
    [['id', dir.toUpperCase()]],
    page.limit - held.length,
    Math.max(0, page.offset - before),
    emptyHints(db, page.trash),
  );
  return [...held, ...rest];
}

/**
 * Every matching id sorted by `target`, in keyset batches of `size` (an export): the holders
 * after the last (value, id) read, then the users without a value after the last id read. The
 * state lives here between batches: `keysetBatches` asks for each batch after the previous one.
 */
export function attributeSortedBatches(
  db: Database,
  target: AttributeTarget,
  where: WhereOptions,
  dir: Dir,
  trash: TrashMode,
): (size: number) => Promise<number[]> {
  let last: Held | undefined;
  let lastEmpty: number | undefined;
  let holdersDone = false;
  return async (size) => {
    const ids: number[] = [];
    if (!holdersDone) {
      const rows = await holders(db, target, where, dir, {
        limit: size,
        offset: 0,
        trash,
        ...(last ? { after: last } : {}),
      });
      last = rows.at(-1) ?? last;
      ids.push(...rows.map((r) => r.id));
      if (rows.length === size) return ids;
      holdersDone = true;
    }
    const beyond = lastEmpty === undefined ? [] : [{ id: { [dir === 'desc' ? Op.lt : Op.gt]: lastEmpty } }];
    const rest = await pageIds(
      db,
      { [Op.and]: [where, withoutValue(target), ...beyond] },
      [['id', dir.toUpperCase()]],
      size - ids.length,
      0,
      emptyHints(db, trash),
    );
    lastEmpty = rest.at(-1) ?? lastEmpty;
    return [...ids, ...rest];
  };
}

/**
 * A page of ids sorted by the scope's attribute (`order` is the same order written for any
 * read): a rare value filter's few holders are read and sorted; otherwise the sort's index is
 * walked. The list's page and the selection's ids both come from here.
 */
export async function idsSortedByAttribute(
  db: Database,
  scope: AttributeScope & { sort: AttributeTarget },
  where: WhereOptions,
  order: OrderItem[],
  dir: Dir,
  page: { limit: number; offset: number; trash: TrashMode },
): Promise<number[]> {
  const fewest = await fewestCandidates(db, scope, page.trash);
  if (fewest !== null && fewest <= SORT_CANDIDATES_MAX) return pageIds(db, where, order, page.limit, page.offset);
  return attributeSortedPage(db, scope.sort, where, dir, page);
}
