import { pipeline, Readable, Transform } from 'node:stream';
import type { UserRow } from '@app/contracts';
import type { ExportColumn } from './export.columns.js';
import { eachRow } from './export.rows.js';

/**
 * A JSON array of objects keyed by field name, with native types (numbers, booleans, ISO 8601
 * strings), written one row at a time; `[]` when no row matches.
 */
export function jsonBody(batches: AsyncIterable<UserRow[]>, columns: readonly ExportColumn[]): Readable {
  let first = true;
  const writer = new Transform({
    writableObjectMode: true,
    transform(item: Record<string, unknown>, _encoding, done) {
      done(null, `${first ? '[\n' : ',\n'}${JSON.stringify(item)}`);
      first = false;
    },
    flush(done) {
      done(null, first ? '[]\n' : '\n]\n');
    },
  });
  const items = eachRow(batches, (row) => Object.fromEntries(columns.map((column) => [column.key, row[column.key]])));
  return pipeline(Readable.from(items), writer, () => undefined);
}
