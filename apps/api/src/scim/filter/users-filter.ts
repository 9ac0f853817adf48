import { SCIM_SCHEMAS } from '@app/contracts';
import { literal, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { roleIdOfGroup } from '../scim-group-id.js';
import { booleanField, constantField, dateField, type Field, idField, textField } from './fields.js';
import { parseFilter } from './parse.js';
import { type FilterSql, filterSql } from './sql.js';
import { type FilterSchema, translate } from './translate.js';

/** Columns of the users list's model alias (`User`, as `usersWhere` reads them). */
const col = (name: string) => `\`User\`.\`${name}\``;

/**
 * SCIM's name parts: those an identity provider sent (migration 0031), else read from the one
 * name — the family name its last word, the given name what comes before (scim-user.mapping.ts
 * `nameParts`). SQLite has no SUBSTRING_INDEX: `rtrim(name, <the name's non-space characters>)`
 * strips the last word and leaves what precedes it. Sent parts need not lie within the name, but
 * the search index holds their trigrams too, so a substring of them still narrows through it.
 */
function nameParts(db: Database): { family: string; given: string } {
  const name = col('name');
  const readFrom = (stored: string, fromName: string) =>
    `(CASE WHEN ${col('given_name')} IS NULL AND ${col('family_name')} IS NULL THEN ${fromName} ELSE ${stored} END)`;
  if (db.dialect === 'mysql') {
    const family = `SUBSTRING_INDEX(${name}, ' ', -1)`;
    return {
      family: readFrom(col('family_name'), family),
      given: readFrom(col('given_name'), `RTRIM(LEFT(${name}, CHAR_LENGTH(${name}) - CHAR_LENGTH(${family})))`),
    };
  }
  const before = `rtrim(${name}, replace(${name}, ' ', ''))`;
  return {
    family: readFrom(col('family_name'), `substr(${name}, length(${before}) + 1)`),
    given: readFrom(col('given_name'), `rtrim(${before})`),
  };
}

/** A user's groups are its roles (read-only here): `value` is the Group's id (`g7`), `display` the role's name. */
function groupsAttribute(sql: FilterSql): FilterSchema['complex'][string] {
  return {
    sub: {
      value: idField(sql, 'groups.value', '`ur`.`role_id`', roleIdOfGroup),
      display: textField(sql, 'groups.display', '`r`.`name`'),
      type: constantField('groups.type', 'direct'),
    },
    default: 'value',
    element: (c) =>
      `EXISTS (SELECT 1 FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = ${col('id')} AND ${c})`,
    sameRow: false,
  };
}

/**
 * userName is the virtual column `user_name_key` (migration 0027: COALESCE(user_name, email),
 * case-insensitive, uniquely indexed). On MariaDB its index serves only a lookup, `eq` ANDed at
 * the top (one const read: the ≤ 20 ms `userName eq` of Okta and Entra). MariaDB 10.11.19 answered
 * no rows where there were some when it ranged over that index with a rowid filter from another
 * (`(userName eq "a" or userName eq "b") and active eq true`, ordered by id; with
 * optimizer_switch rowid_filter=off it answered right), so every other comparison reads the same
 * value as the expression, which no index serves.
 */
function userNameField(db: Database, sql: FilterSql): Field {
  const indexed = textField(sql, 'userName', col('user_name_key'));
  if (db.dialect !== 'mysql') return indexed;
  const computed = textField(sql, 'userName', `COALESCE(${col('user_name')}, ${col('email')})`);
  return {
    label: 'userName',
    compare: (op, value, top) => (top && op === 'eq' ? indexed : computed).compare(op, value),
    present: computed.present,
  };
}

const ENTERPRISE = `${SCIM_SCHEMAS.enterpriseUser.toLowerCase()}:`;

function usersSchema(db: Database): FilterSchema {
  const sql = filterSql(db);
  const { family, given } = nameParts(db);
  const nameNarrows = ['eq', 'co', 'sw', 'ew'] as const;
  const formatted = textField(sql, 'name.formatted', col('name'), { narrows: ['co', 'sw', 'ew'] });
  const email = textField(sql, 'emails.value', col('email'), { narrows: ['co', 'sw', 'ew'] });
  const sameRow = (c: string) => c;
  return {
    resource: 'User',
    urn: SCIM_SCHEMAS.user,
    simple: {
      id: idField(sql, 'id', col('id')),
      externalid: textField(sql, 'externalId', col('external_id'), { caseExact: true, nullable: true }),
      username: userNameField(db, sql),
      displayname: textField(sql, 'displayName', col('name'), { narrows: ['co', 'sw', 'ew'] }),
      active: booleanField('active', col('is_active')),
    },
    complex: {
      name: {
        sub: {
          formatted,
          familyname: textField(sql, 'name.familyName', family, { nullable: true, narrows: nameNarrows }),
          givenname: textField(sql, 'name.givenName', given, { nullable: true, narrows: nameNarrows }),
        },
        default: 'formatted',
        element: sameRow,
        sameRow: true,
      },
      emails: {
        sub: {
          value: email,
          type: constantField('emails.type', 'work'),
          primary: booleanField('emails.primary', col('email_primary'), { nullable: true }),
        },
        default: 'value',
        element: sameRow,
        sameRow: true,
      },
      meta: {
        sub: {
          created: dateField(sql, 'meta.created', col('created_at')),
          lastmodified: dateField(sql, 'meta.lastModified', col('updated_at')),
        },
        element: sameRow,
        sameRow: true,
      },
      groups: groupsAttribute(sql),
    },
    refuse: (path, asSent) =>
      path.startsWith(ENTERPRISE) ? `The enterprise extension attribute "${asSent}" cannot be filtered yet.` : null,
  };
}

/**
 * A SCIM filter on Users as one condition on the User model (alias `User`), and the substrings
 * every match must contain in its name or e-mail (`co`/`sw`/`ew` of three characters or more,
 * ANDed at the top), for the route to narrow through the trigram index before the LIKE decides
 * (users.search.ts). Anything that cannot be filtered is a ScimError 400 invalidFilter.
 */
export function usersFilter(db: Database, text: string): { where: WhereOptions; searchTerms: string[] } {
  const searchTerms: string[] = [];
  const condition = translate(parseFilter(text), usersSchema(db), searchTerms);
  return { where: literal(condition), searchTerms };
}
