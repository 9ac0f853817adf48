import { pipeline, Readable } from 'node:stream';
import type { UserRow } from '@app/contracts';
import { stringify } from 'csv-stringify';
import { type ExportColumn, sheetValue } from './export.columns.js';
import { eachRow } from './export.rows.js';

/** A separator some spreadsheet may split a line at, followed by a formula character. */
const SPLIT_FORMULA = /([,;\t\r\n])(?=[=+\-@])/g;

/** The spreadsheet value, with every piece a `;`, `,` or tab split could make start as text. */
function csvValue(row: UserRow, column: ExportColumn) {
  const value = sheetValue(row, column);
  return typeof value === 'string' ? value.replace(SPLIT_FORMULA, "$1'") : value;
}

/**
 * CSV as spreadsheet programs open it without asking: UTF-8 with a BOM, a header row of labels,
 * RFC 4180 quoting, CRLF, `true`/`false`, ISO 8601 UTC timestamps. The header is written even
 * when no row matches.
 *
 * Every text cell is quoted, needed or not: a spreadsheet whose list separator is `;` (or tab)
 * splits an unquoted `a;=1+1;b` there and runs `=1+1` as a formula. `quoted_string` looks at the
 * value before `cast`, so only real text (names, e-mails, header labels) is quoted; numbers,
 * booleans and timestamps, which cannot hold a separator, stay bare. A quote only protects a
 * cell where it also opens a field for such a spreadsheet (the first column), so inside text a
 * formula character right after a separator gets the same `'` as one at the start.
 */
export function csvBody(batches: AsyncIterable<UserRow[]>, columns: readonly ExportColumn[]): Readable {
  const records = Readable.from(
    eachRow(batches, (row) => Object.fromEntries(columns.map((column) => [column.key, csvValue(row, column)]))),
  );
  const stringifier = stringify({
    bom: true,
    header: true,
    columns: columns.map((column) => ({ key: column.key, header: column.label })),
    record_delimiter: 'windows',
    quoted_string: true,
    cast: { boolean: (value) => (value ? 'true' : 'false'), date: (value) => value.toISOString() },
  });
  // Destroying the body (a closed download) destroys the source, which stops asking for batches.
  return pipeline(records, stringifier, () => undefined);
}
