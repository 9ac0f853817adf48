import { SCIM_SCHEMAS, type ScimGroup } from '@app/contracts';
import { Op, QueryTypes, type Transaction, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { MAY_READ_REPLICA } from '../../db/replica-routing.js';
import { toIso } from '../../db/sql-date.js';
import { ScimError } from '../scim-error.js';
import { groupLocation, groupScimId, roleIdOfGroup } from '../scim-group-id.js';

/** What the SCIM door reads of a role to answer it as a Group. */
export interface ScimGroupRow {
  id: number;
  name: string;
  external_id: string | null;
  lock_version: number;
  created_at: string;
  updated_at: string;
}

interface RawGroupRow {
  id: number | string;
  name: string;
  external_id: string | null;
  lock_version: number | string;
  created_at: Date | string;
  updated_at: Date | string;
}

const toRow = (r: RawGroupRow): ScimGroupRow => ({
  id: Number(r.id),
  name: r.name,
  external_id: r.external_id,
  lock_version: Number(r.lock_version),
  created_at: toIso(r.created_at) as string,
  updated_at: toIso(r.updated_at) as string,
});

/**
 * A group's weak ETag: the role's lock version (its name and permissions) and when it last
 * changed, which a membership change moves too (scim-group.members.ts), so `If-Match` sees it.
 */
export const groupEtag = (row: Pick<ScimGroupRow, 'lock_version' | 'updated_at'>) =>
  `W/"${row.lock_version}-${Date.parse(row.updated_at).toString(36)}"`;

/** A role as a SCIM Group (RFC 7643 §4.2); `members` only when asked for (it may hold a great many). */
export function toScimGroup(row: ScimGroupRow, members: MemberRef[] | null, baseUrl: string): ScimGroup {
  return {
    schemas: [SCIM_SCHEMAS.group],
    id: groupScimId(row.id),
    ...(row.external_id ? { externalId: row.external_id } : {}),
    displayName: row.name,
    // No members is an unassigned attribute (RFC 7643 §2.5): left out, not an empty list.
    ...(members?.length
      ? { members: members.map((m) => ({ value: String(m.id), $ref: `${baseUrl}/Users/${m.id}` })) }
      : {}),
    meta: {
      resourceType: 'Group',
      created: row.created_at,
      lastModified: row.updated_at,
      location: groupLocation(baseUrl, row.id),
      version: groupEtag(row),
    },
  };
}

export interface MemberRef {
  id: number;
}

const COLUMNS = 'id, name, external_id, lock_version, created_at, updated_at';

export async function groupRowsByIds(db: Database, ids: readonly number[], tx?: Transaction): Promise<ScimGroupRow[]> {
  if (ids.length === 0) return [];
  const rows = await db.sequelize.query<RawGroupRow>(`SELECT ${COLUMNS} FROM roles WHERE id IN (:ids)`, {
    type: QueryTypes.SELECT,
    replacements: { ids },
    ...(tx ? { transaction: tx } : MAY_READ_REPLICA),
  });
  const byId = new Map(rows.map((r) => [Number(r.id), toRow(r)]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The role a Group id (`g7`) names; 404 in SCIM's shape when there is none. */
export async function groupById(db: Database, id: string, tx?: Transaction): Promise<ScimGroupRow> {
  const roleId = roleIdOfGroup(id);
  const [row] = roleId === null ? [] : await groupRowsByIds(db, [roleId], tx);
  if (!row) throw new ScimError(404, `No group has the id "${id}".`);
  return row;
}

/** The live users holding each of `roleIds`, in id order (a deleted user is no member). */
export async function membersOfGroups(db: Database, roleIds: readonly number[], tx?: Transaction) {
  const members = new Map<number, MemberRef[]>(roleIds.map((id) => [id, []]));
  if (roleIds.length === 0) return members;
  const rows = await db.sequelize.query<{ role_id: number | string; id: number | string }>(
    `SELECT ur.role_id, u.id FROM user_roles ur JOIN users u ON u.id = ur.user_id
      WHERE ur.role_id IN (:roleIds) AND u.deleted_at IS NULL ORDER BY ur.role_id, ur.user_id`,
    { type: QueryTypes.SELECT, replacements: { roleIds }, ...(tx ? { transaction: tx } : MAY_READ_REPLICA) },
  );
  for (const r of rows) members.get(Number(r.role_id))?.push({ id: Number(r.id) });
  return members;
}

/** A page of roles matching `where` (on the Role model) in `order`, with how many match in all. */
export async function groupsPage(
  db: Database,
  where: WhereOptions | null,
  order: [string, 'ASC' | 'DESC'][],
  start: { offset: number } | { afterId: number },
  count: number,
): Promise<{ total: number; ids: number[]; more: boolean }> {
  const base = where ?? {};
  const paged = 'afterId' in start ? { [Op.and]: [base, { id: { [Op.gt]: start.afterId } }] } : base;
  const [total, rows] = await Promise.all([
    db.models.Role.count({ where: base }),
    count === 0
      ? Promise.resolve([])
      : db.models.Role.findAll({
          attributes: ['id'],
          where: paged,
          order,
          limit: count + 1,
          offset: 'offset' in start ? start.offset : 0,
          raw: true,
        }),
  ]);
  const ids = rows.map((r) => Number(r.id));
  return { total, ids: ids.slice(0, count), more: ids.length > count };
}
