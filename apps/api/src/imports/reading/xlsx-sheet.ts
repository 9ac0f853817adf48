import type { Readable } from 'node:stream';
import { cellTooLong } from './errors.js';
import { displayNumber } from './number-format.js';
import type { RawRow } from './rows.js';
import type { Workbook } from './xlsx-workbook.js';
import { streamXml } from './xlsx-xml.js';

/** Columns past XFD do not exist in Excel; a reference beyond is a hostile file, not data. */
const MAX_COLUMNS = 16_384;

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
  let ready: RawRow[] = [];
  let rowNumber = 0;
  let values: string[] = [];
  let cell: CellState | null = null;
  let collecting: 'v' | 't' | null = null;

  const display = (c: CellState): string => {
    switch (c.type) {
      case 's':
        return book.sharedStrings[Number(c.value)] ?? '';
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

  const handlers = {
    open(name: string, attrs: Record<string, string>) {
      if (name === 'row') {
        rowNumber = attrs.r ? Number(attrs.r) : rowNumber + 1;
        values = [];
      } else if (name === 'c') {
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
      if (cell.value.length + cell.inline.length > maxCellChars) throw cellTooLong(rowNumber, maxCellChars);
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
