import { pipeline, Readable } from 'node:stream';
import type { UserRow } from '@app/contracts';
import { stringify } from 'csv-stringify';
import { type ExportColumn, sheetValue } from './export.columns.js';
import { eachRow } from './export.rows.js';

/**
 * CSV as spreadsheet programs open it without asking: UTF-8 with a BOM, a header row of labels,
 * RFC 4180 quoting, CRLF, `true`/`false`, ISO 8601 UTC timestamps. The header is written even
 * when no row matches.
 */
export function csvBody(batches: AsyncIterable<UserRow[]>, columns: readonly ExportColumn[]): Readable {
  const records = Readable.from(
    eachRow(batches, (row) => Object.fromEntries(columns.map((column) => [column.key, sheetValue(row, column)]))),
  );
  const stringifier = stringify({
    bom: true,
    header: true,
    columns: columns.map((column) => ({ key: column.key, header: column.label })),
    record_delimiter: 'windows',
    cast: { boolean: (value) => (value ? 'true' : 'false'), date: (value) => value.toISOString() },
  });
  // Destroying the body (a closed download) destroys the source, which stops asking for batches.
  return pipeline(records, stringifier, () => undefined);
}
