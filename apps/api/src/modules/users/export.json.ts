import { Readable } from 'node:stream';
import type { UserRow } from '@app/contracts';
import { CHUNKS_AHEAD, type ExportColumn } from './export.columns.js';

/**
 * A JSON array of objects keyed by field name, with native types (numbers, booleans, ISO 8601
 * strings), one chunk per batch; `[]` when no row matches.
 */
export function jsonBody(batches: AsyncIterable<UserRow[]>, columns: readonly ExportColumn[]): Readable {
  const pick = (row: UserRow) => Object.fromEntries(columns.map((column) => [column.key, row[column.key]]));
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
