import { type AuditListQuery, LIST_COUNT_BOUND } from '@app/contracts';
import { Op, type OrderItem, QueryTypes, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { orderFor, whereFor } from '../../query/list-query-engine.js';
import { countUpTo, pageIdsOf, selectSql } from '../../query/list-reads.js';
import { userIdsMatching } from '../users/users.matching.js';
import { auditMapping, targetedIn } from './audit.mapping.js';

/** Users a `q` may name: enough for any real search, few enough to keep each branch one range. */
const PEOPLE_LIMIT = 200;

/**
 * What a list query reads: the filters (ANDed) and, when the query has alternatives (`q`: the
 * people it names as actor or target, an IP, a request id; `user_id`: actor or target), one
 * branch per alternative. Each branch is read through its own index and the branches are
 * merged (`UNION`), because MariaDB answers an OR of them by walking every event.
 */
export interface AuditScope {
  where: WhereOptions;
  branches: WhereOptions[];
}

export async function auditScope(db: Database, query: AuditListQuery): Promise<AuditScope> {
  const base = whereFor(db, auditMapping, { ...query, q: null });
  const alternatives: WhereOptions[][] = [];
  const user = query.filters.user_id;
  if (user) alternatives.push([{ actor_id: Number(user.value) }, targetedIn([Number(user.value)])]);
  if (query.q) {
    const people = await userIdsMatching(db, query.q, PEOPLE_LIMIT);
    const exact: WhereOptions[] = [{ ip: query.q }, { request_id: query.q }];
    alternatives.push(people.length ? [{ actor_id: { [Op.in]: people } }, targetedIn(people), ...exact] : exact);
  }
  const [driving, ...others] = alternatives;
  if (!driving) return { where: base, branches: [] };
  // One set of alternatives drives the read; another (both `user_id` and `q`) narrows each branch.
  return { where: { [Op.and]: [base, ...others.map((alts) => ({ [Op.or]: alts }))] }, branches: driving };
}

const quote = (identifier: string) => `\`${identifier.replace(/`/g, '')}\``;

function orderSql(query: AuditListQuery): string {
  const columns: Readonly<Record<string, string>> = auditMapping.sorts;
  return query.order.map(([key, dir]) => `${quote(columns[key] ?? 'id')} ${dir === 'asc' ? 'ASC' : 'DESC'}`).join(', ');
}

/** Each branch's first `each` rows in the query's order, merged without duplicates. */
function unionSql(db: Database, scope: AuditScope, order: OrderItem[] | undefined, each: number): string {
  const model = db.models.AuditLog;
  return scope.branches
    .map((branch, i) => {
      const inner = selectSql(db, model, {
        attributes: ['id', 'created_at'],
        where: { [Op.and]: [scope.where, branch] },
        ...(order ? { order } : {}),
        limit: each,
      });
      return `SELECT id, created_at FROM (${inner}) AS b${i}`;
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
    { type: QueryTypes.SELECT },
  );
  return rows.map((r) => Number(r.id));
}

/** How many events match, exact up to LIST_COUNT_BOUND and a lower bound past it. */
export async function auditTotal(db: Database, scope: AuditScope): Promise<{ total: number; exact: boolean }> {
  const bound = LIST_COUNT_BOUND + 1;
  let n: number;
  if (scope.branches.length === 0) {
    n = await countUpTo(db, db.models.AuditLog, scope.where, bound);
  } else {
    const [row] = await db.sequelize.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM (${unionSql(db, scope, undefined, bound)}) AS u`,
      { type: QueryTypes.SELECT },
    );
    n = Number(row?.n ?? 0);
  }
  return n > LIST_COUNT_BOUND ? { total: LIST_COUNT_BOUND, exact: false } : { total: n, exact: true };
}
