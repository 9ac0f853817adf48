/** What the reading layer of a user import hands to the job: detected shape and rows as text. */

import { IMPORT_DELIMITERS, type ImportDelimiter, type ImportEncoding, type ImportFormat } from '@app/contracts';

export type { ImportEncoding, ImportFormat };
/** The contract's delimiters (SPEC §13), the ones detection chooses among. */
export type CsvDelimiter = ImportDelimiter;
export const CSV_DELIMITERS: readonly CsvDelimiter[] = IMPORT_DELIMITERS;

export interface ReadLimits {
  /** Data rows (the header excluded) past which the file is refused with TOO_MANY_ROWS. */
  maxRows: number;
  /** XLSX: inflated bytes of the parts read (declared in the zip and counted while inflating). */
  maxUncompressedBytes: number;
  /** XLSX: entries in the zip's central directory (default 10 000). */
  maxEntries?: number;
  /**
   * Characters in one cell (default 64 KiB; XLSX at most Excel's 32 767); a CSV record or NDJSON
   * line may hold 16 times that.
   */
  maxCellChars?: number;
  /** XLSX: texts in the workbook's shared strings table (default: see `maxSharedStrings`). */
  maxSharedStrings?: number;
  /** XLSX: UTF-8 bytes of those texts, all together (default 64 MB). */
  maxSharedStringBytes?: number;
}

export interface ReadOptions {
  /** From the upload's content type; sniffed from the first bytes when absent. */
  format?: ImportFormat;
  encoding?: ImportEncoding;
  delimiter?: CsvDelimiter;
  /** XLSX sheet by name; the first sheet when absent. */
  sheet?: string;
  limits: ReadLimits;
}

export interface Detected {
  format: ImportFormat;
  /** null for XLSX, which carries its own encoding. */
  encoding: ImportEncoding | null;
  delimiter: CsvDelimiter | null;
  sheet: string | null;
  /** Trimmed, as written in the file (matching to fields is `matchColumns`' job). */
  headers: string[];
}

/** A row-level problem the reader found; the row is reported, the import goes on. */
export interface RowProblem {
  code: 'NOT_AN_OBJECT' | 'BAD_JSON' | 'NESTED_VALUE' | 'EXTRA_FIELDS';
  message: string;
}

export interface SourceRow {
  /**
   * The line or row number a user sees: CSV physical line where the record starts (1 = header),
   * XLSX row number, JSON array index + 2, NDJSON line.
   */
  line: number;
  /** Aligned with `Detected.headers` by index; '' for a missing cell. */
  values: string[];
  problem?: RowProblem;
}

export interface OpenedImport {
  detected: Detected;
  /** Read lazily; `return()` (or `break` in a loop) closes the file. */
  rows: AsyncGenerator<SourceRow, void, undefined>;
}

export const DEFAULT_MAX_ENTRIES = 10_000;
export const DEFAULT_MAX_CELL_CHARS = 64 * 1024;
/** A CSV record or NDJSON line may hold many cells, but not without bound. */
export const RECORD_CELLS_FACTOR = 16;

export function maxCellChars(limits: ReadLimits): number {
  return limits.maxCellChars ?? DEFAULT_MAX_CELL_CHARS;
}

/** Excel's own limit for the text of one cell: a longer one was not written by a spreadsheet. */
export const EXCEL_MAX_CELL_CHARS = 32_767;
/** Excel's last row: a row numbered past it was not written by a spreadsheet. */
export const EXCEL_MAX_ROWS = 1_048_576;
/**
 * Shared strings a row may bring: a person's own texts (name, e-mail, external id, a hash) and a
 * few more. Every other text repeats (roles, departments, yes/no), and a spreadsheet stores a
 * repeated text once.
 */
export const SHARED_STRINGS_PER_ROW = 8;
/** However few rows are allowed, a workbook's other sheets may hold this many texts. */
export const MIN_SHARED_STRINGS = 65_536;
export const DEFAULT_MAX_SHARED_STRING_BYTES = 64 * 1024 * 1024;

/** Data rows an XLSX can bring: the limit, or all Excel's rows but the header. */
export const xlsxMaxRows = (limits: ReadLimits) => Math.min(limits.maxRows, EXCEL_MAX_ROWS - 1);

/** The shared strings table's limit: SHARED_STRINGS_PER_ROW for the header and each row allowed. */
export function maxSharedStrings(limits: ReadLimits): number {
  return limits.maxSharedStrings ?? Math.max(MIN_SHARED_STRINGS, SHARED_STRINGS_PER_ROW * (xlsxMaxRows(limits) + 1));
}
