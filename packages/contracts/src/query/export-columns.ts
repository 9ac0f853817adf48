import { z } from 'zod';
import { dedupe, toList } from './normalise';

/**
 * An export's `columns[]`: some of a resource's column keys, picked and ordered by the caller,
 * duplicates dropped; every column in the resource's order when absent.
 */
export function exportColumnList<K extends string>(keys: readonly [K, ...K[]]) {
  const message = `Columns must be some of: ${keys.join(', ')}.`;
  return z.preprocess(
    (raw: string | string[]) => toList(raw),
    z
      .array(z.enum(keys as unknown as [K, ...K[]], { error: message }), { error: message })
      .transform(dedupe)
      .default([...keys]),
  );
}
