import { cellTooLong, ImportFileError, tooManyRows } from './errors.js';
import type { ReadLimits, RowProblem, SourceRow } from './types.js';
import { maxCellChars } from './types.js';

/**
 * Lines are staged and reported in 32-bit INT columns: MariaDB refuses a larger one (a 500) where
 * SQLite would store it. Only blank lines by the billion get there, so the file is refused, the
 * same on every engine.
 */
const MAX_LINE = 2_147_483_647;

/** A row as a reader found it, before trimming, padding and the limits. */
export interface RawRow {
  line: number;
  values: string[];
  problem?: RowProblem;
}

export function trimmedHeaders(values: readonly string[]): string[] {
  const headers = values.map((value) => value.trim());
  while (headers.length > 0 && headers.at(-1) === '') headers.pop();
  return headers;
}

/**
 * Rows as the job sees them: values trimmed and aligned with the headers, rows with no value at
 * all skipped (spreadsheets leave them behind), values past the last header reported as a row
 * problem, and the row and cell limits enforced for every format alike.
 */
export async function* shapeRows(
  batches: AsyncIterable<RawRow[]>,
  headerCount: number,
  limits: ReadLimits,
): AsyncGenerator<SourceRow> {
  const cellLimit = maxCellChars(limits);
  let count = 0;
  for await (const batch of batches)
    for (const row of batch) {
      if (row.line > MAX_LINE) {
        throw new ImportFileError(
          'TOO_MANY_ROWS',
          `The file goes on past line ${MAX_LINE.toLocaleString('en-US')}, the last line an import can number; split it into smaller files.`,
        );
      }
      const values = new Array<string>(headerCount);
      let filled = false;
      let extra = false;
      for (let i = 0; i < row.values.length; i++) {
        const value = row.values[i] ?? '';
        if (value.length > cellLimit) throw cellTooLong(row.line, cellLimit);
        const trimmed = value.trim();
        if (trimmed !== '') filled = true;
        if (i < headerCount) values[i] = trimmed;
        else if (trimmed !== '') extra = true;
      }
      if (!filled && !row.problem) continue;
      for (let i = row.values.length; i < headerCount; i++) values[i] = '';
      count++;
      if (count > limits.maxRows) throw tooManyRows(limits.maxRows);
      const problem: RowProblem | undefined =
        row.problem ??
        (extra
          ? {
              code: 'EXTRA_FIELDS',
              message: `Line ${row.line} has more values than the header has columns.`,
            }
          : undefined);
      yield problem ? { line: row.line, values, problem } : { line: row.line, values };
    }
}
