import { z } from 'zod';
import { describeInput } from '../json-schema';
import type { KeyedSort } from './define-list-query';
import { dedupe, toList } from './normalise';

const KEYED_COLUMN_KEY = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * An export's `columns[]`: some of a resource's column keys, picked and ordered by the caller,
 * duplicates dropped; every column in the resource's order when absent. `keyed` families add
 * columns the server declares (`attributes` → `attributes.<key>`): the contract checks their
 * form, the server that the caller may see them; they are never in the default.
 */
export function exportColumnList<K extends string, P extends string = never>(
  keys: readonly [K, ...K[]],
  options: { keyed?: readonly P[] } = {},
) {
  const keyed = options.keyed ?? [];
  const message = `Columns must be some of: ${[...keys, ...keyed.map((p) => `${p}.<key>`)].join(', ')}.`;
  const isKeyed = (raw: unknown): raw is KeyedSort<P> => {
    if (typeof raw !== 'string') return false;
    const dot = raw.indexOf('.');
    return (keyed as readonly string[]).includes(raw.slice(0, dot)) && KEYED_COLUMN_KEY.test(raw.slice(dot + 1));
  };
  const column: z.ZodType<K | KeyedSort<P>, K | KeyedSort<P>> =
    keyed.length === 0
      ? z.enum(keys as unknown as [K, ...K[]], { error: message })
      : describeInput(
          z.custom<K | KeyedSort<P>>((raw) => (keys as readonly unknown[]).includes(raw) || isKeyed(raw), {
            error: message,
          }),
          {
            anyOf: [
              { type: 'string', enum: [...keys] },
              { type: 'string', pattern: `^(${keyed.join('|')})\\.[a-z][a-z0-9_]{0,63}$` },
            ],
          },
        );
  return z.preprocess(
    (raw: string | string[]) => toList(raw),
    z
      .array(column, { error: message })
      .transform(dedupe)
      .default([...keys]),
  );
}
