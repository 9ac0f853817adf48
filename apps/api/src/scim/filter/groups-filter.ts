import { roleNameKey, SCIM_SCHEMAS } from '@app/contracts';
import { literal, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { roleIdOfGroup } from '../scim-group-id.js';
import { constantField, dateField, type Field, idField, textField } from './fields.js';
import { parseFilter } from './parse.js';
import { filterSql } from './sql.js';
import { type FilterSchema, translate } from './translate.js';

/** Columns of the Role model's alias (`Role`, as `db.models.Role.findAll` names it). */
const col = (name: string) => `\`Role\`.\`${name}\``;

/**
 * `displayName`: the role's name. `eq` compares the names' keys (migration 0028: case and spacing
 * aside, on both engines, by the unique index), so "help  desk" finds "Help Desk" as the role
 * editor's uniqueness rule does; the other operators compare the name without regard to case.
 */
function displayNameField(sql: ReturnType<typeof filterSql>): Field {
  const byName = textField(sql, 'displayName', col('name'));
  return {
    ...byName,
    compare: (op, value, top) =>
      op === 'eq' && typeof value === 'string'
        ? `${col('name_key')} = ${sql.value(roleNameKey(value))}`
        : byName.compare(op, value, top),
  };
}

function groupsSchema(db: Database): FilterSchema {
  const sql = filterSql(db);
  return {
    resource: 'Group',
    urn: SCIM_SCHEMAS.group,
    simple: {
      id: idField(sql, 'id', col('id'), roleIdOfGroup),
      displayname: displayNameField(sql),
      externalid: textField(sql, 'externalId', col('external_id'), { caseExact: true, nullable: true }),
    },
    complex: {
      // A group's members are the users holding the role, outside the trash.
      members: {
        sub: {
          value: idField(sql, 'members.value', '`ur`.`user_id`'),
          display: textField(sql, 'members.display', '`mu`.`name`'),
          type: constantField('members.type', 'User'),
        },
        default: 'value',
        element: (c) =>
          `EXISTS (SELECT 1 FROM user_roles ur JOIN users mu ON mu.id = ur.user_id
                    WHERE ur.role_id = ${col('id')} AND mu.deleted_at IS NULL AND ${c})`,
        sameRow: false,
      },
      meta: {
        sub: {
          created: dateField(sql, 'meta.created', col('created_at')),
          lastmodified: dateField(sql, 'meta.lastModified', col('updated_at')),
        },
        element: (c) => c,
        sameRow: true,
      },
    },
  };
}

/**
 * A SCIM filter on Groups (the product's roles) as one condition on the Role model: `displayName`
 * (the role's name, without regard to case), `id` (`g7`), `members.value`/`members[value eq "…"]` (roles
 * the user holds), `meta.created`/`meta.lastModified`. Anything else is a ScimError 400 invalidFilter.
 */
export function groupsFilter(db: Database, text: string): WhereOptions {
  return literal(translate(parseFilter(text), groupsSchema(db), null));
}
