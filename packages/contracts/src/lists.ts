import { z } from 'zod';
import { ErrorCodeSchema } from './errors';
import { exportColumnList } from './query/export-columns';
import { integer, lowerCased, numeric } from './query/fields';
import { dedupe, toList } from './query/normalise';

/**
 * What every list resource shares, whatever its rows: the answer's envelope (`rows` and `meta`),
 * the count's bound, a row's per-action states, and an export's format, columns and ids.
 * A resource's own file names only its row, its list query and its columns.
 */

/**
 * Above this many matches a narrowed list stops counting: its total becomes a lower bound
 * (`totalExact: false`), shown as "10,000+". Unnarrowed views are always exact.
 */
export const LIST_COUNT_BOUND = 10_000;

/** `meta` of a list response. */
export const ListMetaSchema = z.object({
  page: z.number().int().positive(),
  perPage: z.number().int().positive(),
  total: z
    .number()
    .int()
    .nonnegative()
    .describe(
      `How many rows match: exact when \`totalExact\`, else a lower bound (at least ${LIST_COUNT_BOUND}, and at least every row up to this page).`,
    ),
  totalExact: z
    .boolean()
    .describe(
      `False when more than ${LIST_COUNT_BOUND} rows match a search or filter the server can count neither from its counters nor by checking the search index's candidates: \`total\` is then a lower bound and \`pageCount\` follows from it. "Select all matching" and exports still cover every match.`,
    ),
  pageCount: z.number().int().nonnegative(),
});
export type ListMeta = z.infer<typeof ListMetaSchema>;

/**
 * Every list answers `{rows, meta, …}`: one page of `row`, its meta, then what the resource adds
 * (the filters as understood, counters, options), in that order.
 */
export function listResultSchema<Row extends z.ZodType, Extra extends z.ZodRawShape = Record<never, never>>(
  row: Row,
  extra?: Extra,
) {
  return z.object({ rows: z.array(row), meta: ListMetaSchema, ...(extra ?? ({} as Extra)) });
}

/** Allowed, or not with the code and sentence the write itself would refuse with. */
export const ActionStateSchema = z.object({
  allowed: z.boolean(),
  code: ErrorCodeSchema.optional(),
  message: z.string().optional(),
});
export type ActionState = z.infer<typeof ActionStateSchema>;

/** The most ids one request may name: a selection, a bulk operation, an export. */
export const MAX_IDS = 10_000;

export const EXPORT_FORMATS = ['csv', 'xlsx', 'json'] as const;
export const ExportFormatSchema = z.enum(EXPORT_FORMATS, {
  error: `Format must be one of: ${EXPORT_FORMATS.join(', ')}.`,
});
export type ExportFormat = z.infer<typeof ExportFormatSchema>;

const idMessage = 'Each id must be a whole number of 1 or more.';

/** Ids from a query string (`ids[]=3&ids[]=5`, text) or a JSON list; duplicates are dropped. */
export const idListParam = z.preprocess(
  (raw: Array<number | string> | number | string) => toList(raw),
  z
    .array(numeric(integer(idMessage, { min: 1 })), { error: idMessage })
    .max(MAX_IDS, `Give at most ${MAX_IDS} ids.`)
    .transform(dedupe)
    .optional(),
);

/**
 * An export's own parameters beside the list query: `format` (csv when absent) and `columns`
 * picking and ordering from the resource's column keys (all, in the column set's order, when absent).
 */
export function exportShape<K extends string>(columnKeys: readonly [K, ...K[]]) {
  return {
    format: lowerCased(ExportFormatSchema.default('csv')),
    columns: exportColumnList(columnKeys),
  };
}
