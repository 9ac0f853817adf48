import type { Readable } from 'node:stream';
import { ImportFileError, textTooLong } from './errors.js';
import { displayNumber } from './number-format.js';
import type { RawRow } from './rows.js';
import { EXCEL_MAX_CELL_CHARS, EXCEL_MAX_ROWS } from './types.js';
import type { Workbook } from './xlsx-workbook.js';
import { cannotFit, streamXml } from './xlsx-xml.js';

/** Columns past XFD do not exist in Excel; a reference beyond is a hostile file, not data. */
const MAX_COLUMNS = 16_384;
const LAST_ROW = EXCEL_MAX_ROWS.toLocaleString('en-US');

/** A row or cell numbered past Excel's last row, named when its number is short enough to read. */
function pastLastRow(what: 'Row' | 'Cell', label: string, digits: string): ImportFileError {
  const named = digits.length <= 12 ? `${what} ${label}` : `A ${what.toLowerCase()}`;
  return new ImportFileError('MALFORMED', `${named} is past Excel's last row, ${LAST_ROW}.`);
}

/**
 * The number of a row: its `r`, or the one after the previous row. Excel numbers rows from 1 to
 * 1 048 576 and writes them in increasing order; a row outside that was not written by a
 * spreadsheet, and its number is the line the report would name (and a database column's key).
 */
function rowNumberOf(r: string | undefined, previous: number): number {
  const digits = r === undefined || r === '' ? String(previous + 1) : r;
  if (!/^\d+$/.test(digits) || Number(digits) < 1) {
    throw new ImportFileError(
      'MALFORMED',
      `A row of the sheet is not numbered with a whole number from 1 to ${LAST_ROW}.`,
    );
  }
  const row = Number(digits);
  if (row > EXCEL_MAX_ROWS) throw pastLastRow('Row', row.toLocaleString('en-US'), digits);
  if (row === previous) throw new ImportFileError('MALFORMED', `Row ${row} appears twice in the sheet.`);
  if (row < previous) {
    throw new ImportFileError(
      'MALFORMED',
      `Row ${row} comes after row ${previous}; the rows of a sheet are in order in every file a spreadsheet writes.`,
    );
  }
  return row;
}

/** A cell reference's row part (`A7` → 7), refused past Excel's last row. */
function checkCellRow(ref: string | undefined): void {
  const match = ref ? /^[A-Z]+(\d+)$/.exec(ref) : null;
  const digits = match?.[1];
  if (digits && Number(digits) > EXCEL_MAX_ROWS) throw pastLastRow('Cell', ref as string, digits);
}

/** `0` → `A`, `27` → `AB`: the column part of a reference, for a cell written without one. */
function columnName(column: number): string {
  let name = '';
  for (let n = column + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** Zero-based column of a cell reference such as `AB12`, or -1 when it has none. */
export function columnOf(ref: string | undefined): number {
  if (!ref) return -1;
  let column = 0;
  for (let i = 0; i < ref.length; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
  }
  return column - 1;
}

interface CellState {
  column: number;
  type: string;
  style: number;
  value: string;
  inline: string;
}

/**
 * Rows of one worksheet as displayed text, streamed: shared strings looked up, booleans as
 * TRUE/FALSE and errors as `#N/A` as Excel shows them, numbers and dates through their cell's
 * number format. A formula's cached result is read, never the formula.
 */
export async function* sheetRows(source: Readable, book: Workbook, maxCellChars: number): AsyncGenerator<RawRow[]> {
  const maxChars = Math.min(maxCellChars, EXCEL_MAX_CELL_CHARS);
  let ready: RawRow[] = [];
  let rowNumber = 0;
  let values: string[] = [];
  let cell: CellState | null = null;
  let collecting: 'v' | 't' | null = null;

  const display = (c: CellState): string => {
    switch (c.type) {
      case 's':
        return book.sharedStrings.at(Number(c.value)) ?? '';
      case 'inlineStr':
        return c.inline;
      case 'b':
        return c.value === '1' ? 'TRUE' : c.value === '0' ? 'FALSE' : c.value;
      case 'str':
      case 'e':
      case 'd':
        return c.value;
      default:
        return c.value === '' ? '' : displayNumber(c.value, book.styleFormats[c.style] ?? 'General', book.date1904);
    }
  };

  const tooLong = (c: CellState) => textTooLong(`Cell ${columnName(c.column)}${rowNumber}`, rowNumber, maxChars);

  const handlers = {
    open(name: string, attrs: Record<string, string>) {
      if (name === 'row') {
        rowNumber = rowNumberOf(attrs.r, rowNumber);
        values = [];
      } else if (name === 'c') {
        checkCellRow(attrs.r);
        const column = columnOf(attrs.r);
        cell = {
          column: column >= 0 ? column : values.length,
          type: attrs.t ?? 'n',
          style: Number(attrs.s ?? 0),
          value: '',
          inline: '',
        };
      } else if (cell && (name === 'v' || (name === 't' && cell.type === 'inlineStr'))) {
        collecting = name;
      }
    },
    text(text: string) {
      if (!cell || !collecting) return;
      if (collecting === 'v') cell.value += text;
      else cell.inline += text;
      if (cell.value.length + cell.inline.length > maxChars) throw tooLong(cell);
    },
    pending(chars: number) {
      if (cell && collecting && cannotFit(cell.value.length + cell.inline.length, chars, maxChars)) throw tooLong(cell);
    },
    close(name: string) {
      if (name === 'v' || name === 't') collecting = null;
      else if (name === 'c' && cell) {
        if (cell.column < MAX_COLUMNS) {
          const text = display(cell);
          for (let i = values.length; i < cell.column; i++) values[i] = '';
          values[cell.column] = text;
        }
        cell = null;
      } else if (name === 'row') {
        ready.push({ line: rowNumber, values });
      }
    },
  };

  const drain = function* () {
    if (ready.length === 0) return;
    yield ready;
    ready = [];
  };
  for await (const batch of streamXml(source, handlers, drain)) yield batch as RawRow[];
}
