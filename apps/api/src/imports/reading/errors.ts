import { EXCEL_MAX_CELL_CHARS } from './types.js';

export type ImportFileErrorCode =
  | 'UNREADABLE'
  | 'UNSUPPORTED_FORMAT'
  | 'EMPTY'
  | 'NO_HEADER'
  | 'TOO_MANY_ROWS'
  | 'TOO_LARGE_UNCOMPRESSED'
  | 'BAD_ENCODING'
  | 'NO_SUCH_SHEET'
  | 'MALFORMED'
  | 'CELL_TOO_LONG'
  | 'LINE_TOO_LONG'
  | 'TOO_MANY_SHARED_STRINGS';

/**
 * The whole file cannot be imported. `message` is one sentence for the person who uploaded it:
 * what is wrong with their file and, where it helps, the line; never a library's wording.
 */
export class ImportFileError extends Error {
  override readonly name = 'ImportFileError';
  constructor(
    readonly code: ImportFileErrorCode,
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

export function tooManyRows(maxRows: number): ImportFileError {
  return new ImportFileError(
    'TOO_MANY_ROWS',
    `The file has more than ${maxRows.toLocaleString('en-US')} rows; split it into smaller files.`,
  );
}

export function cellTooLong(line: number, maxChars: number): ImportFileError {
  return new ImportFileError(
    'CELL_TOO_LONG',
    `A cell on line ${line} is longer than ${maxChars.toLocaleString('en-US')} characters.`,
    line,
  );
}

/** `what` (a cell, a shared string) holds more text than `maxChars`, said with Excel's reason when it is Excel's limit. */
export function textTooLong(what: string, line: number | undefined, maxChars: number): ImportFileError {
  const why = maxChars === EXCEL_MAX_CELL_CHARS ? ", Excel's limit for a cell" : '';
  return new ImportFileError(
    'CELL_TOO_LONG',
    `${what} is longer than ${maxChars.toLocaleString('en-US')} characters${why}.`,
    line,
  );
}
