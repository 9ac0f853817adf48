import { z } from 'zod';
import type { ShowErrorCode } from '../errors';
import { ACCEPTS_NOTHING, constrainInput, describeInput, EMPTY_IS_ABSENT } from '../json-schema';
import { booleanish } from './fields';
import { dedupe, normaliseRaw, toList } from './normalise';

export interface ShowQueryConfig<W extends string, C extends string, A extends string> {
  /** Relations that may be loaded. */
  readonly with: readonly W[];
  /** Relations that may be counted (by subselect, never by loading rows). */
  readonly withCount: readonly C[];
  /** Computed fields that may be appended. */
  readonly append: readonly A[];
}

// Type aliases, not interfaces: tRPC merges chained `.input()` parsers only when each one's
// type is assignable to a plain record, which interfaces (no index signature) are not.
export type ShowQuery<W extends string, C extends string, A extends string> = {
  with: W[];
  withCount: C[];
  append: A[];
  withTrashed: boolean;
};

export type ShowQueryInput<W extends string, C extends string, A extends string> = {
  with?: W | W[];
  withCount?: C | C[];
  append?: A | A[];
  withTrashed?: boolean | string | number;
};

export interface ShowQueryDefinition<W extends string, C extends string, A extends string>
  extends ShowQueryConfig<W, C, A> {
  readonly input: z.ZodType<ShowQuery<W, C, A>, ShowQueryInput<W, C, A>>;
}

export type ShowQueryOf<D extends { input: z.ZodType }> = z.output<D['input']>;

/** `{loaded_relations, loaded_counts, loaded_appends}`: what a show response actually loaded. */
export const ShowMetaSchema = z.object({
  loaded_relations: z.array(z.string()),
  loaded_counts: z.array(z.string()),
  loaded_appends: z.array(z.string()),
});
export type ShowMeta = z.infer<typeof ShowMetaSchema>;

// No resource has more than a handful of relations; duplicates beyond this are not a request.
const MAX_NAMES = 50;

function quoted(name: string): string {
  return `"${name.length > 40 ? `${name.slice(0, 40)}…` : name}"`;
}

function nameList<N extends string>(noun: string, allowed: readonly N[], code: ShowErrorCode) {
  const isAllowed = (name: string): name is N => (allowed as readonly string[]).includes(name);
  const list = allowed.length > 0 ? allowed.join(', ') : 'none';
  const shapeMessage = `Give ${noun} names as a list, e.g. ${allowed[0] ?? 'name'}.`;
  const names = z
    .array(z.string({ error: shapeMessage }), { error: shapeMessage })
    .max(MAX_NAMES, `Give at most ${MAX_NAMES} ${noun} names.`)
    .superRefine((given, ctx) => {
      given.forEach((name, index) => {
        if (isAllowed(name)) return;
        const message = `${noun[0]?.toUpperCase()}${noun.slice(1)} ${quoted(name)} is not allowed. Allowed: ${list}.`;
        ctx.addIssue({ code: 'custom', path: [index], message, params: { code }, input: name });
      });
    })
    .transform((given) => dedupe(given.filter(isAllowed)));
  // A single name is a list of one; the paths of its issues are then `with.0` like any list.
  // With nothing allowed, no value is right: the OpenAPI document leaves the parameter out.
  return describeInput(
    z.preprocess((raw: N | N[]) => toList(raw), names.default([])),
    allowed.length > 0
      ? { type: 'array', items: { type: 'string', enum: [...allowed] }, maxItems: MAX_NAMES, default: [] }
      : ACCEPTS_NOTHING,
  );
}

/**
 * Declares what a show endpoint may load. `input` accepts `{with, withCount, append,
 * withTrashed}` (each list as an array or one name) and fails a disallowed name at its index
 * (`with.0`) with a custom issue carrying RELATION_NOT_ALLOWED / COUNT_NOT_ALLOWED /
 * APPEND_NOT_ALLOWED in `params.code` (see `codeFromZod`).
 */
export function defineShowQuery<const W extends string, const C extends string, const A extends string>(
  config: ShowQueryConfig<W, C, A>,
): ShowQueryDefinition<W, C, A> {
  const base = z.object(
    {
      with: nameList('relation', config.with, 'RELATION_NOT_ALLOWED'),
      withCount: nameList('count of relation', config.withCount, 'COUNT_NOT_ALLOWED'),
      append: nameList('appended field', config.append, 'APPEND_NOT_ALLOWED'),
      withTrashed: booleanish(
        z.boolean({ error: 'withTrashed must be true or false (1 or 0 also work).' }).default(false),
      ),
    },
    { error: 'The show query must be a set of named parameters.' },
  );
  const input = constrainInput(
    z.preprocess((raw: ShowQueryInput<W, C, A>) => normaliseRaw(raw) ?? {}, base),
    { [EMPTY_IS_ABSENT]: true },
  ) as z.ZodType<ShowQuery<W, C, A>, ShowQueryInput<W, C, A>>;
  return { ...config, input };
}
