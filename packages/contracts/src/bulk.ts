import { z } from 'zod';
import { constrainInput } from './json-schema';
import { MAX_IDS } from './lists';
import { isPlainObject } from './query/normalise';

/**
 * The parts every list resource's bulk request shares (SPEC §7): which rows, as a list of ids or
 * as a selection (every row its list query matches, less some), and a dry run. A resource adds
 * its operations and their arguments (`users.bulk.ts`); the API's bulk kit (apps/api/src/bulk/)
 * runs both shapes.
 */

/** How the rows are called in the messages: `{ one: 'user', many: 'users' }`. */
export interface BulkNoun {
  one: string;
  many: string;
}

const idMessage = 'Each id must be a whole number of 1 or more.';
const idSchema = z.number({ error: idMessage }).int(idMessage).positive(idMessage);

/** The rows named by id: 1 to MAX_IDS of them, none twice (each repeat reported where it is). */
export function bulkIds(noun: BulkNoun) {
  const ids = z
    .array(idSchema, { error: 'Give the ids as a list of numbers.' })
    .min(1, `Select at least one ${noun.one}.`)
    .max(MAX_IDS, `Give at most ${MAX_IDS} ids.`)
    .superRefine((list, ctx) => {
      const seen = new Set<number>();
      list.forEach((id, index) => {
        if (seen.has(id)) {
          ctx.addIssue({ code: 'custom', path: [index], message: `Id ${id} is listed more than once.`, input: id });
        }
        seen.add(id);
      });
    });
  // For the OpenAPI document (json-schema.ts): what the refinement enforces.
  return constrainInput(ids, { uniqueItems: true });
}

/**
 * Every row a list query matches (its filters and search; page, sort and perPage play no part),
 * less `except` (up to MAX_IDS ids). Frozen when the job is submitted: rows created afterwards
 * are not swept in.
 */
export function bulkSelection<Q extends z.ZodType>(query: Q, noun: BulkNoun) {
  const exceptIds = constrainInput(
    z
      .array(idSchema, { error: 'Give the ids to leave out as a list of numbers.' })
      .max(MAX_IDS, `Leave out at most ${MAX_IDS} ids.`)
      .refine((list) => new Set(list).size === list.length, 'An id is listed more than once.'),
    { uniqueItems: true },
  );
  return z.preprocess(
    (raw, ctx) => {
      // A list query reads a missing or null query as "no filters"; a selection must not: a
      // query lost on its way (a client's bug, a null from a form) would otherwise mean "every
      // row". Everyone is said explicitly, as `query: {}`.
      if (isPlainObject(raw) && !isPlainObject(raw.query)) {
        ctx.addIssue({
          code: 'custom',
          path: ['query'],
          message: `Say which ${noun.many} the selection matches: query must be a list query ({} for every ${noun.one}).`,
          input: raw.query,
        });
      }
      return raw;
    },
    z.object({ query, except: exceptIds.default([]) }, { error: 'The selection must be {query, except?}.' }),
  );
}

/** Reports a request that gives both ids and a selection, or neither: one of them says which rows. */
export function checkBulkTargets(
  value: { ids?: unknown; selection?: unknown },
  ctx: z.RefinementCtx,
  noun: BulkNoun,
): void {
  const hasIds = value.ids !== undefined;
  if (hasIds !== (value.selection !== undefined)) return;
  ctx.addIssue({
    code: 'custom',
    path: hasIds ? ['selection'] : ['ids'],
    message: hasIds
      ? 'Give either ids or a selection, not both.'
      : `Say which ${noun.many}: a list of ids, or a selection {query, except?}.`,
    input: undefined,
  });
}

export const dryRunField = z.boolean({ error: 'dryRun must be true or false.' }).default(false);
