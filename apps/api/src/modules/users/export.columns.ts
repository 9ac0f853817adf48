import { USER_COLUMNS, type UserColumnKey, type UserRow } from '@app/contracts';

export type ExportColumn = (typeof USER_COLUMNS)[number];

/** The columns asked for, in the order asked (the contract has already validated and deduped them). */
export function pickColumns(keys: readonly UserColumnKey[]): ExportColumn[] {
  return keys.flatMap((key) => USER_COLUMNS.find((column) => column.key === key) ?? []);
}

/** Spreadsheet programs run a cell starting with these as a formula (CSV/formula injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A leading single quote makes the spreadsheet show the text as typed instead of running it. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/**
 * A row's value for a spreadsheet cell (CSV, XLSX): numbers and booleans as such, timestamps as
 * Dates, text neutralised.
 */
export function sheetValue(row: UserRow, column: ExportColumn): string | number | boolean | Date {
  const value = row[column.key];
  switch (column.type) {
    case 'datetime':
      return new Date(value as string);
    case 'string':
      return neutralise(String(value));
    default:
      return value;
  }
}

/** `users-20250102-030405.csv`, in UTC, so a file name sorts and reads the same everywhere. */
export function exportFilename(extension: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/-|:/g, '')
    .replace('T', '-');
  return `users-${stamp}.${extension}`;
}

/**
 * Batches a writer keeps formatted ahead of the socket (or the zip): with the next batch's
 * query already running, two are enough to keep both busy, and a deeper queue only holds
 * memory (each chunk is a whole batch of text).
 */
export const CHUNKS_AHEAD = 2;
