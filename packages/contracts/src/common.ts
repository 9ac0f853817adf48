import { z } from 'zod';
import { integer, numeric } from './query/fields';

/** A record id as the server returns it. */
export const IdSchema = z.number().int().positive();

/** Timestamps cross the wire as ISO 8601 UTC strings (`2024-05-01T09:30:00.000Z`). */
export const IsoDateTimeSchema = z.iso.datetime();

/** `{id, name}`: a role or permission as embedded in another resource. */
export const NamedRefSchema = z.object({ id: IdSchema, name: z.string() });
export type NamedRef = z.infer<typeof NamedRefSchema>;

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

/** `{id}` from a path parameter (text in REST) or a tRPC object. */
export const IdInputSchema = z.object({
  id: numeric(integer('The id must be a whole number of 1 or more.', { min: 1 })),
});
export type IdInput = z.infer<typeof IdInputSchema>;
