import { Readable } from 'node:stream';
import { CHUNKS_AHEAD, type ExportColumn, PIECE_CHARS, readerOf } from './columns.js';

/**
 * A JSON array of objects keyed by field name, with native types (numbers, booleans, ISO 8601
 * strings, `json` columns as structures), in chunks of about PIECE_CHARS; `[]` when no row matches.
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
        if (chunk.length >= PIECE_CHARS) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }
    yield first ? '[]\n' : '\n]\n';
  }
  return Readable.from(chunks(), { highWaterMark: CHUNKS_AHEAD });
}
