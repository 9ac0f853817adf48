import { z } from 'zod';
import { defineListQuery, type ListQueryOf } from '../query/define-list-query';
import { defineShowQuery, type ShowQueryOf } from '../query/define-show-query';
import { integer, lowerCased, numeric } from '../query/fields';
import { dateRange, oneOrMany, textContains, trashed, tristate } from '../query/filters';
import { dedupe, toList } from '../query/normalise';
import { USER_COLUMN_KEYS } from './users.columns';
import { exportColumnList } from '../query/export-columns';

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
  },
  sorts: ['id', 'name', 'email', 'is_active', 'created_at'],
  defaultOrder: ['id', 'desc'],
  perPage: { default: 10, max: 100, choices: [10, 25, 50, 100] },
});
export type UsersListQuery = ListQueryOf<typeof usersListQuery>;
export type UsersSort = (typeof usersListQuery.sorts)[number];
export type UsersFilterName = keyof typeof usersListQuery.filters;

export const userShowQuery = defineShowQuery({
  with: ['roles'],
  withCount: ['roles'],
  append: ['is_admin', 'permission_names'],
});
export type UserShowQuery = ShowQueryOf<typeof userShowQuery>;

/** The most ids one request may name: a selection, a bulk operation, an export. */
export const MAX_IDS = 10_000;

export const EXPORT_FORMATS = ['csv', 'xlsx', 'json'] as const;
export const ExportFormatSchema = z.enum(EXPORT_FORMATS, {
  error: `Format must be one of: ${EXPORT_FORMATS.join(', ')}.`,
});
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

const idMessage = 'Each id must be a whole number of 1 or more.';

/** Ids from a query string (`ids[]=3&ids[]=5`, text) or a JSON list; duplicates are dropped. */
const idList = z.preprocess(
  (raw: Array<number | string> | number | string) => toList(raw),
  z
    .array(numeric(integer(idMessage, { min: 1 })), { error: idMessage })
    .max(MAX_IDS, `Give at most ${MAX_IDS} ids.`)
    .transform(dedupe)
    .optional(),
);

const columnList = exportColumnList(USER_COLUMN_KEYS);

/** GET /users/selected: the list query (page and perPage ignored) and how many ids at most. */
export const usersSelectedShape = {
  limit: numeric(
    integer(`Limit must be a whole number from 1 to ${MAX_IDS}.`, { min: 1, max: MAX_IDS }).default(MAX_IDS),
  ),
};

/**
 * GET /users/export: the list query (page and perPage ignored), `format` (csv when absent),
 * `ids` narrowing to a selection, `columns` picking and ordering (all, in column-set order,
 * when absent).
 */
export const usersExportShape = {
  format: lowerCased(ExportFormatSchema.default('csv')),
  ids: idList,
  columns: columnList,
};

export const UsersSelectedInputSchema = usersListQuery.extend(usersSelectedShape);
export type UsersSelectedInput = z.output<typeof UsersSelectedInputSchema>;
export const UsersExportInputSchema = usersListQuery.extend(usersExportShape);
export type UsersExportInput = z.output<typeof UsersExportInputSchema>;
