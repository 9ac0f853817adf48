import type { AttributeValue, UserRow, UsersExportInput } from '@app/contracts';
import { cast, col, Op, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { keysetBatches } from '../../export/batches.js';
import { after } from '../../query/list-query-engine.js';
import { idWalkHints, usersOrder, usersWhere } from './users.list-query.js';
import { usersMapping } from './users.mapping.js';
import { plainUserRows, readStats, roleNamesOf, rolesCountsOf } from './users.read-repository.js';
import { estimateUsersSearch, searchCondition } from './users.search.js';
import { exportValuesOf } from './export.attribute-values.js';
import type { AttributeDefinition } from '../attributes/attributes.repository.js';
import { attributeSortedBatches } from './users.attribute-sort.js';
import { type ScopedUsersQuery, trashModeOf } from './users.attributes-query.js';

/**
 * An exported row: the user columns and the exported attributes' values, in the order asked for
 * (null where none). Held by position, not as a property each: one shape for every row, however
 * many attributes, written by index.
 */
export type UserExportRow = UserRow & { attributeValues: Array<AttributeValue | null> };

/** Rows per query: large enough to amortise the round trip, small enough to keep memory flat. */
export const EXPORT_BATCH_SIZE = 1000;

const CREATED = 'created_at_text';
const DELETED = 'deleted_at_text';

/**
 * A timestamp column selected as the database's text: the export only prints it, and parsing a
 * Date per value to print it again was the cost. SQLite stores the text already.
 */
const asText = (db: Database, column: string, alias: string) =>
  db.dialect === 'mysql' ? [cast(col(column), 'CHAR'), alias] : [column, alias];

/** A row as the batch query returns it: timestamps as the database's text. */
interface ExportRawRow {
  id: number;
  name: string;
  email: string;
  is_active: boolean | number;
  [CREATED]: string;
  [DELETED]: string | null;
}

/** `2025-06-01 12:34:56.789`, with SQLite's ` +00:00` after it or not. */
const STORED_UTC_MS = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}(?: \+00:00)?$/;

/**
 * A stored timestamp's text as ISO 8601 UTC: MariaDB's `2025-06-01 12:34:56.789` (the session
 * runs at UTC), SQLite's `2025-06-01 12:34:56.789 +00:00`. Text to text: a Date parsed and
 * printed again per value cost over a second of a million-row export (CPU profile).
 */
function isoOf(text: string): string {
  if (STORED_UTC_MS.test(text)) return `${text.slice(0, 10)}T${text.slice(11, 23)}Z`;
  // Anything else (no milliseconds, another offset): through a Date, read as UTC unless it says otherwise.
  const iso = text.replace(' ', 'T').replace(/ (?=[+-]\d\d:?\d\d$)/, '');
  return new Date(/(Z|[+-]\d\d:?\d\d)$/.test(iso) ? iso : `${iso}Z`).toISOString();
}

/** A batch's last row as the keyset continuation reads it: the sortable columns, typed as the list's. */
const keyOf = (r: ExportRawRow) => ({
  id: Number(r.id),
  name: r.name,
  email: r.email,
  is_active: Boolean(r.is_active),
  created_at: new Date(isoOf(r[CREATED])),
});

/**
 * The export's rows, in the list's order, in keyset batches (`keysetBatches`), read as plain
 * rows (no model instances).
 *
 * Role counts come from one grouped query per batch, and only when the column is exported: a
 * count subquery per row took three quarters of the batch's SQL time at a million users. Role
 * names likewise, one query per batch when exported (and then the counts are theirs).
 */
export async function openUserBatches(
  db: Database,
  input: UsersExportInput & ScopedUsersQuery,
  attributes: readonly AttributeDefinition[] = [],
  size = EXPORT_BATCH_SIZE,
): Promise<AsyncGenerator<UserExportRow[]>> {
  const stats = await readStats(db);
  const search = await estimateUsersSearch(db, input, stats);
  const narrowing = searchCondition(db, search, { kind: 'batches', size });
  const base = usersWhere(db, input, narrowing);
  const matching: WhereOptions = input.ids ? { [Op.and]: [base, { id: { [Op.in]: input.ids } }] } : base;
  const order = usersOrder(input);
  // Read through the search index, the candidates are sorted, not walked in the sort's index.
  const hints = narrowing ? {} : idWalkHints(db, input, stats);
  const withNames = input.columns.includes('roles');
  const withCounts = !withNames && input.columns.includes('roles_count');
  const columns = [
    'id',
    'name',
    'email',
    'is_active',
    asText(db, 'created_at', CREATED),
    asText(db, 'deleted_at', DELETED),
  ];
  const sortedBy = input.attributeScope?.sort;
  // Sorted by an attribute, the ids come from the value index's walk, then their rows by key.
  const nextIds = sortedBy ? attributeSortedBatches(db, sortedBy, matching, input.dir, trashModeOf(input)) : null;

  const rawRows = async (last: ExportRawRow | undefined): Promise<ExportRawRow[]> => {
    if (nextIds) {
      const ids = await nextIds(size);
      if (ids.length === 0) return [];
      const found = await plainUserRows<ExportRawRow>(db, { attributes: columns as never, where: { id: ids } });
      const byId = new Map(found.map((r) => [Number(r.id), r]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    }
    // Bound as a Date, the timestamp is written exactly as stored (SQLite keeps text), so ties compare equal.
    const continuation = last && after(usersMapping, input, keyOf(last));
    const where = continuation ? { [Op.and]: [matching, continuation] } : matching;
    return plainUserRows<ExportRawRow>(db, { attributes: columns as never, where, order, limit: size, ...hints });
  };

  const complete = async (raw: ExportRawRow[]): Promise<UserExportRow[]> => {
    const ids = raw.map((r) => Number(r.id));
    const [names, counts, values] = await Promise.all([
      withNames ? roleNamesOf(db, ids) : null,
      withCounts ? rolesCountsOf(db, ids) : null,
      attributes.length ? exportValuesOf(db, ids, attributes) : null,
    ]);
    const byId = new Map<number, Array<AttributeValue | null>>();
    const rows = raw.map((r): UserExportRow => {
      const id = Number(r.id);
      const deleted = r[DELETED];
      const roles = names?.get(id) ?? [];
      const attributeValues = new Array<AttributeValue | null>(attributes.length).fill(null);
      if (values) byId.set(id, attributeValues);
      return {
        id,
        name: r.name,
        email: r.email,
        roles_count: names ? roles.length : (counts?.get(id) ?? 0),
        roles,
        is_active: Boolean(r.is_active),
        created_at: isoOf(r[CREATED]),
        deleted_at: deleted === null ? null : isoOf(deleted),
        attributeValues,
      };
    });
    values?.forEach((column, i) => {
      for (let k = 0; k < column.ids.length; k++) {
        const held = byId.get(column.ids[k] as number);
        if (held) held[i] = column.values[k] as AttributeValue;
      }
    });
    return rows;
  };

  return keysetBatches(rawRows, size, complete);
}
