import { Readable } from 'node:stream';
import { CHUNKS_AHEAD, type ExportColumn, readerOf } from './columns.js';

/**
 * A JSON array of objects keyed by field name, with native types (numbers, booleans, ISO 8601
 * strings, `json` columns as structures), one chunk per batch; `[]` when no row matches.
 */
export function jsonBody<Row extends object>(
  batches: AsyncIterable<Row[]>,
  columns: readonly ExportColumn<Row>[],
): Readable {
  const readers = columns.map((column) => [column.key, readerOf(column)] as const);
  const pick = (row: Row) => Object.fromEntries(readers.map(([key, value]) => [key, value(row)]));
  async function* chunks() {
    let first = true;
    for await (const batch of batches) {
      let chunk = '';
      for (const row of batch) {
        chunk += `${first ? '[\n' : ',\n'}${JSON.stringify(pick(row))}`;
        first = false;
      }
      if (chunk) yield chunk;
    }
    yield first ? '[]\n' : '\n]\n';
  }
  return Readable.from(chunks(), { highWaterMark: CHUNKS_AHEAD });
}
