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
  | 'LINE_TOO_LONG';

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
