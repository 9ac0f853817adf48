import { type AuditListQuery, LIST_COUNT_BOUND } from '@app/contracts';
import { Op, type OrderItem, QueryTypes, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { orderFor, whereFor } from '../../query/list-query-engine.js';
import { boundedTotal, countBounded, type ListTotal } from '../../query/list-page.js';
import { pageIdsOf, selectSql, whereSql } from '../../query/list-reads.js';
import { userIdsMatching } from '../users/users.matching.js';
import { auditMapping, changedIn, targetedIn } from './audit.mapping.js';
import { MAY_READ_REPLICA } from '../../db/replica-routing.js';

/** Users a `q` may name: enough for any real search, few enough to keep each branch one range. */
const PEOPLE_LIMIT = 200;

/**
 * One way in: conditions on the events, read through the events' indexes; "the events naming
 * these users as targets", read from `audit_targets` by its `(target_id, created_at, audit_id)`
 * index; or "the events that changed this custom attribute", read from `audit_attributes` by its
 * `(attribute_key, created_at, audit_id)` key — newest first without looking at the events skipped.
 */
export type AuditBranch = { where: WhereOptions } | { targets: number[] } | { attribute: string };

/**
 * What a list query reads: the filters (ANDed) and, when the query has alternatives (`q`: the
 * people it names as actor or target, an IP, a request id; `user_id`: actor or target;
 * `target_id`), one branch per alternative. Each branch is read through its own index and the
 * branches are merged (`UNION`), because MariaDB answers an OR of them by walking every event.
 */
export interface AuditScope {
  where: WhereOptions;
  branches: AuditBranch[];
}

const asWhere = (db: Database, branch: AuditBranch): WhereOptions =>
  'targets' in branch
    ? targetedIn(branch.targets)
    : 'attribute' in branch
      ? changedIn(db, branch.attribute)
      : branch.where;

export async function auditScope(db: Database, query: AuditListQuery): Promise<AuditScope> {
  const base = whereFor(db, auditMapping, { ...query, q: null });
  const alternatives: AuditBranch[][] = [];
  const attribute = query.filters.attribute;
  if (attribute) alternatives.push([{ attribute: String(attribute.value) }]);
  const target = query.filters.target_id;
  if (target) alternatives.push([{ targets: [Number(target.value)] }]);
  const user = query.filters.user_id;
  if (user) alternatives.push([{ where: { actor_id: Number(user.value) } }, { targets: [Number(user.value)] }]);
  if (query.q) {
    const people = await userIdsMatching(db, query.q, PEOPLE_LIMIT);
    const exact: AuditBranch[] = [{ where: { ip: query.q } }, { where: { request_id: query.q } }];
    alternatives.push(
      people.length ? [{ where: { actor_id: { [Op.in]: people } } }, { targets: people }, ...exact] : exact,
    );
  }
  const [driving, ...others] = alternatives;
  if (!driving) return { where: base, branches: [] };
  // One set of alternatives drives the read; the others (`target_id` with `user_id` or `q`) narrow each branch.
  const narrowing = others.map((alts) => ({ [Op.or]: alts.map((alt) => asWhere(db, alt)) }));
  return { where: { [Op.and]: [base, ...narrowing] }, branches: driving };
}

const quote = (identifier: string) => `\`${identifier.replace(/`/g, '')}\``;

function orderSql(query: AuditListQuery): string {
  const columns: Readonly<Record<string, string>> = auditMapping.sorts;
  return query.order.map(([key, dir]) => `${quote(columns[key] ?? 'id')} ${dir === 'asc' ? 'ASC' : 'DESC'}`).join(', ');
}

/** The columns of a side table (`s`) that order its rows as the events' columns would. */
const SIDE_COLUMNS: Readonly<Record<string, string>> = { created_at: 's.created_at', id: 's.audit_id' };

/** A side table of the events, keyed (key, created_at, audit_id), and the keys a branch reads. */
interface SideRead {
  table: 'audit_targets' | 'audit_attributes';
  /** `column IN (...)`, the values already made safe (ids as integers, a key escaped). */
  keyed: string;
}

function sideRead(db: Database, branch: { targets: number[] } | { attribute: string }): SideRead {
  if ('attribute' in branch) {
    return { table: 'audit_attributes', keyed: `s.attribute_key IN (${db.sequelize.escape(branch.attribute)})` };
  }
  const ids = branch.targets.map(Number).filter((id) => Number.isSafeInteger(id) && id > 0);
  return { table: 'audit_targets', keyed: `s.target_id IN (${ids.join(', ') || 'NULL'})` };
}

/**
 * The events a side table names, read from it in the query's order (its key holds the time and
 * the event id), each joined to its event only to check the other filters. The join order is
 * forced on MariaDB/MySQL: the optimizer would otherwise start from the events. Without other
 * filters and without an order (a count), the side table alone answers: no join.
 */
function sideSql(db: Database, side: SideRead, where: WhereOptions, order: OrderItem[] | undefined, each: number) {
  const model = db.models.AuditLog;
  const conditions = whereSql(db, model, where);
  if (!order && !conditions)
    return `SELECT s.audit_id AS id FROM ${side.table} AS s WHERE ${side.keyed} LIMIT ${Number(each)}`;
  const orderBy = (order ?? [])
    .map((item) => {
      const [column, dir] = item as [string, string];
      return `${SIDE_COLUMNS[column] ?? 's.audit_id'} ${dir === 'ASC' ? 'ASC' : 'DESC'}`;
    })
    .join(', ');
  const join = db.dialect === 'mysql' ? 'STRAIGHT_JOIN' : 'CROSS JOIN';
  return `SELECT \`AuditLog\`.\`id\` AS id, \`AuditLog\`.\`created_at\` AS created_at
    FROM ${side.table} AS s ${join} audit_logs AS \`AuditLog\` ON \`AuditLog\`.\`id\` = s.audit_id
   WHERE ${side.keyed}${conditions ? ` AND (${conditions})` : ''}
   ${orderBy ? `ORDER BY ${orderBy}` : ''} LIMIT ${Number(each)}`;
}

/**
 * Each branch's first `each` rows, merged without duplicates: with `order`, ids and times in
 * that order (a page); without, ids alone (a count).
 */
function unionSql(db: Database, scope: AuditScope, order: OrderItem[] | undefined, each: number): string {
  const model = db.models.AuditLog;
  const columns = order ? 'id, created_at' : 'id';
  return scope.branches
    .map((branch, i) => {
      const inner =
        'where' in branch
          ? selectSql(db, model, {
              attributes: order ? ['id', 'created_at'] : ['id'],
              where: { [Op.and]: [scope.where, branch.where] },
              ...(order ? { order } : {}),
              limit: each,
            })
          : sideSql(db, sideRead(db, branch), scope.where, order, each);
      return `SELECT ${columns} FROM (${inner}) AS b${i}`;
    })
    .join(' UNION ');
}

/** One page of event ids in the query's order. */
export async function auditPageIds(
  db: Database,
  scope: AuditScope,
  query: AuditListQuery,
  limit: number,
  offset: number,
): Promise<number[]> {
  const order = orderFor(auditMapping, query);
  if (scope.branches.length === 0) return pageIdsOf(db.models.AuditLog, scope.where, order, limit, offset);
  const rows = await db.sequelize.query<{ id: number | string }>(
    `SELECT id FROM (${unionSql(db, scope, order, offset + limit)}) AS u ORDER BY ${orderSql(query)} LIMIT ${Number(limit)} OFFSET ${Number(offset)}`,
    { type: QueryTypes.SELECT, ...MAY_READ_REPLICA },
  );
  return rows.map((r) => Number(r.id));
}

/** How many events match, exact up to LIST_COUNT_BOUND and a lower bound past it. */
export async function auditTotal(db: Database, scope: AuditScope): Promise<ListTotal> {
  if (scope.branches.length === 0) return countBounded(db, db.models.AuditLog, scope.where);
  const [row] = await db.sequelize.query<{ n: number | string }>(
    `SELECT COUNT(*) AS n FROM (${unionSql(db, scope, undefined, LIST_COUNT_BOUND + 1)}) AS u`,
    { type: QueryTypes.SELECT, ...MAY_READ_REPLICA },
  );
  return boundedTotal(Number(row?.n ?? 0));
}
