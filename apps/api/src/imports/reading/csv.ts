import { type Readable, pipeline } from 'node:stream';
import { type CsvError, parse } from 'csv-parse';
import { ImportFileError } from './errors.js';
import type { RawRow } from './rows.js';
import { batches } from './stream-batches.js';
import { type CsvDelimiter, maxCellChars, RECORD_CELLS_FACTOR, type ReadLimits } from './types.js';

/** Line breaks inside a record's values: a quoted cell spanning lines. A CRLF counts once. */
function lineBreaksIn(values: readonly string[]): number {
  let count = 0;
  for (const value of values) {
    for (let at = value.indexOf('\n'); at !== -1; at = value.indexOf('\n', at + 1)) count++;
  }
  return count;
}

/** The 1-based line of byte `offset` of the text, counted again from the start (only on a failure). */
async function lineAt(open: () => Readable, offset: number): Promise<number> {
  let line = 1;
  let seen = 0;
  const source = open();
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const end = Math.min(chunk.length, offset - seen);
      for (let at = chunk.indexOf(10); at !== -1 && at < end; at = chunk.indexOf(10, at + 1)) line++;
      seen += chunk.length;
      if (seen >= offset) break;
    }
  } finally {
    source.destroy();
  }
  return line;
}

function isCsvError(error: unknown): error is CsvError {
  return error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
}

/** A parser's failure as one sentence about the user's file. */
function fileErrorOf(error: unknown, line: number, limits: ReadLimits): ImportFileError {
  if (error instanceof ImportFileError) return error;
  if (!isCsvError(error)) {
    return new ImportFileError('UNREADABLE', 'The uploaded file could not be read.');
  }
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    const max = maxCellChars(limits) * RECORD_CELLS_FACTOR;
    return new ImportFileError(
      'LINE_TOO_LONG',
      `The record starting on line ${line} is longer than ${max.toLocaleString('en-US')} characters; it may have an unclosed quote.`,
      line,
    );
  }
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    return new ImportFileError('MALFORMED', `A quote (") opened on line ${line} is never closed.`, line);
  }
  return new ImportFileError('MALFORMED', `The file has a quote (") in the wrong place on line ${line}.`, line);
}

/**
 * Records of an RFC 4180 file (csv-parse), each with the physical line it starts on. Blank
 * lines come through as records so that the count stays exact: a record takes one line plus
 * the line breaks inside its quoted values. (csv-parse's own `info` would cost 60% more time,
 * and its line count counts a quoted CRLF twice.)
 */
export async function* csvRecords(
  open: () => Readable,
  delimiter: CsvDelimiter,
  limits: ReadLimits,
): AsyncGenerator<RawRow[]> {
  const source = open();
  const parser = parse({
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: maxCellChars(limits) * RECORD_CELLS_FACTOR,
  });
  pipeline(source, parser, () => {
    // Failures reach the loop below through the parser's 'error' event; this only keeps them handled.
  });
  let line = 1;
  try {
    for await (const batch of batches<string[]>(parser)) {
      const rows: RawRow[] = [];
      for (const record of batch) {
        const start = line;
        line += 1 + lineBreaksIn(record);
        if (record.length === 1 && record[0] === '') continue;
        rows.push({ line: start, values: record });
      }
      yield rows;
    }
  } catch (error) {
    // Records parsed before a failure never reach this loop: the failure's byte offset says where it is.
    const at = (error as { bytes?: unknown }).bytes;
    throw fileErrorOf(error, typeof at === 'number' ? await lineAt(open, at) : line, limits);
  } finally {
    source.destroy();
    parser.destroy();
  }
}
