import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/database.js';
import { MAY_READ_REPLICA } from '../../db/replica-routing.js';
import type { ResolvedCondition } from '../../domain/attributes.list-query.js';
import { conditionSql, type ScopedUsersQuery } from './users.attributes-query.js';

/**
 * How many users a role-filtered query of an enumeration value matches, counted on the list keys
 * per role and enumeration value (migration 0036; docs/database.md): one role, at most the status,
 * live users, no search, and an `in` test of an enumeration whose keys are built. The matches of
 * "Sales, active, manager" are then one range of the table's primary key (attribute_id,
 * text_value, role_id, user_id), each row's status read where it lies, no further than `bound`
 * (null: all of them); any other attribute condition is the list's own, tested on each entry's
 * user id. Null when the keys cannot count the query (the role keys, the value index or the users
 * table count it then).
 */
export function enumKeysCount(db: Database, query: ScopedUsersQuery, bound: number | null): Promise<number> | null {
  const lead = keyedLead(query);
  if (!lead) return null;
  const role = query.filters.role_id;
  const status = query.filters.is_active;
  const esc = (v: string | number) => db.sequelize.escape(v);
  const others = (query.attributeScope?.conditions ?? [])
    .filter((c) => c !== lead)
    .map((c) => ` AND ${conditionSql(db, c, 'without', 'k.user_id').val}`);
  // The primary key's range: MariaDB would otherwise intersect the role's index with another (at
  // a million users 33 ms against 3–5 ms: it reads the whole role to narrow an exact range).
  const index = db.dialect === 'mysql' ? ' FORCE INDEX (PRIMARY)' : '';
  const sql = `SELECT COUNT(*) AS n FROM (SELECT k.user_id FROM user_role_enum_keys k${index}
     WHERE k.attribute_id = ${Number(lead.target.id)} AND k.text_value IN (${lead.values.map(esc).join(', ')})
       AND k.role_id = ${Number(role?.kind === 'in' ? role.values[0] : 0)}
       ${status ? `AND k.is_active = ${status.value ? 1 : 0}` : ''}${others.join('')}
     ${bound === null ? '' : `LIMIT ${Number(bound)}`}) AS matching`;
  return db.sequelize
    .query<{ n: number | string }>(sql, { type: QueryTypes.SELECT, ...MAY_READ_REPLICA })
    .then(([row]) => Number(row?.n ?? 0));
}

/** The query's `in` test of a keyed enumeration, when the keys hold every other filter of it. */
function keyedLead(query: ScopedUsersQuery): Extract<ResolvedCondition, { op: 'in' }> | null {
  if (query.q !== null) return null;
  const { role_id: role, trashed, is_active: _status, attributes: _attributes, ...rest } = query.filters;
  if (role?.kind !== 'in' || role.values.length !== 1) return null;
  const id = Number(role.values[0]);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  if ((trashed?.kind === 'trashed' ? trashed.value : 'without') !== 'without') return null;
  if (Object.values(rest).some((v) => v !== undefined)) return null;
  const conditions = query.attributeScope?.conditions ?? [];
  const lead = conditions.find((c) => c.op === 'in' && c.target.roleKeyed && c.values.length > 0);
  return lead?.op === 'in' ? lead : null;
}
