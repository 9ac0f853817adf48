import { z } from 'zod';
import { INVITATION_STATES } from '../invitations';
import { defineListQuery, type ListQueryOf } from '../query/define-list-query';
import { defineShowQuery, type ShowQueryOf } from '../query/define-show-query';
import { integer, numeric } from '../query/fields';
import { attributeConditions } from '../attributes/attribute-filters';
import { exportColumnList } from '../query/export-columns';
import { dateRange, oneOrMany, textContains, trashed, tristate } from '../query/filters';
import { exportShape, idListParam, MAX_IDS } from '../lists';
import { USER_COLUMN_KEYS } from './users.columns';

export const usersListQuery = defineListQuery({
  search: ['name', 'email'],
  filters: {
    name: textContains({ max: 255 }),
    email: textContains({ max: 255 }),
    role_id: oneOrMany(numeric(integer('A role id must be a whole number of 1 or more.', { min: 1 })), {
      max: 100,
    }),
    is_active: tristate(),
    created_between: dateRange(),
    trashed: trashed(),
    // The latest invitation's state (SPEC §14): `filters[invitation]=pending`.
    invitation: oneOrMany(
      z.enum(INVITATION_STATES, { error: `An invitation state is one of: ${INVITATION_STATES.join(', ')}.` }),
      { max: INVITATION_STATES.length },
    ),
    // Custom attributes (SPEC §14): `filters[attributes][<key>]…`, judged against the declared
    // schema on the server (attribute-filters.ts).
    attributes: attributeConditions(),
  },
  sorts: ['id', 'name', 'email', 'is_active', 'created_at'],
  // `sort=attributes.<key>`: users without a value come last, whichever the direction.
  keyedSorts: ['attributes'],
  defaultOrder: ['id', 'desc'],
  perPage: { default: 10, max: 100, choices: [10, 25, 50, 100] },
});
export type UsersListQuery = ListQueryOf<typeof usersListQuery>;
/** The users table's own sort columns (an attribute's sort is `attributes.<key>`). */
export type UsersSort = (typeof usersListQuery.sorts)[number];
export type UsersFilterName = keyof typeof usersListQuery.filters;

export const userShowQuery = defineShowQuery({
  with: ['roles'],
  withCount: ['roles'],
  append: ['is_admin', 'permission_names'],
});
export type UserShowQuery = ShowQueryOf<typeof userShowQuery>;

/** GET /users/selected: the list query (page and perPage ignored) and how many ids at most. */
export const usersSelectedShape = {
  limit: numeric(
    integer(`Limit must be a whole number from 1 to ${MAX_IDS}.`, { min: 1, max: MAX_IDS }).default(MAX_IDS),
  ),
};

/**
 * GET /users/export: the list query (page and perPage ignored), `format` (csv when absent),
 * `ids` narrowing to a selection, `columns` picking and ordering (the user columns, in
 * column-set order, when absent); `attributes.<key>` adds a custom attribute's column, headed by
 * its label (the server refuses a key the caller cannot see).
 */
export const usersExportShape = {
  ...exportShape(USER_COLUMN_KEYS),
  columns: exportColumnList(USER_COLUMN_KEYS, { keyed: ['attributes'] }),
  ids: idListParam,
};

export const UsersSelectedInputSchema = usersListQuery.extend(usersSelectedShape);
export type UsersSelectedInput = z.output<typeof UsersSelectedInputSchema>;
export const UsersExportInputSchema = usersListQuery.extend(usersExportShape);
export type UsersExportInput = z.output<typeof UsersExportInputSchema>;
