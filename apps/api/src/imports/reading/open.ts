import { csvRecords } from './csv.js';
import { detectDelimiter } from './delimiter.js';
import { ImportFileError } from './errors.js';
import { jsonArrayItems } from './json-array.js';
import { type JsonItem, KeyOrder } from './json-values.js';
import { ndjsonItems } from './ndjson.js';
import { type RawRow, shapeRows, trimmedHeaders } from './rows.js';
import { detectEncoding, readHead, sniffFormat } from './sniff.js';
import { decodeHead, utf8Source } from './text-source.js';
import {
  type Detected,
  type ImportFormat,
  type OpenedImport,
  RECORD_CELLS_FACTOR,
  type ReadOptions,
  type SourceRow,
  maxCellChars,
} from './types.js';
import { openXlsxZip } from './xlsx-zip.js';
import { readWorkbook, type Workbook } from './xlsx-workbook.js';
import { sheetRows } from './xlsx-sheet.js';

/** A header this wide is not a list of people (and every row would be padded to it). */
const MAX_COLUMNS = 1000;

function empty(): ImportFileError {
  return new ImportFileError('EMPTY', 'The file is empty.');
}

function noHeader(): ImportFileError {
  return new ImportFileError('NO_HEADER', 'The first row must name the columns (for example Name, Email).');
}

/**
 * Rows whose `return()` closes the file even before the first row was asked for: a generator
 * not yet started skips its own `finally` blocks, and the header was already read through it.
 */
function closing(rows: AsyncGenerator<SourceRow>, close: () => Promise<unknown>): OpenedImport['rows'] {
  const wrapper: OpenedImport['rows'] = {
    next: () => rows.next(),
    async return(value) {
      try {
        return await rows.return(value);
      } finally {
        await close();
      }
    },
    async throw(error) {
      try {
        return await rows.throw(error);
      } finally {
        await close();
      }
    },
    [Symbol.asyncIterator]: () => wrapper,
  };
  return wrapper;
}

/** A JSON reader's items one by one as the batches the other readers give. */
async function* asBatches(items: AsyncIterable<JsonItem>, keys: KeyOrder): AsyncGenerator<RawRow[]> {
  for await (const item of items) yield [keys.rowOf(item)];
}

/**
 * Splits a stream of row batches into its header (the first row with any value) and the rows
 * after it, reading only as far as the header. `close` lets go of the file whether or not the
 * rest was ever read.
 */
async function withHeader(
  iterator: AsyncGenerator<RawRow[]>,
): Promise<{ headers: string[]; rest: AsyncGenerator<RawRow[]>; close: () => Promise<unknown> }> {
  for (;;) {
    const next = await iterator.next();
    if (next.done) throw empty();
    const at = next.value.findIndex((row) => trimmedHeaders(row.values).length > 0);
    if (at === -1) continue;
    const headers = trimmedHeaders((next.value[at] as RawRow).values);
    if (headers.length > MAX_COLUMNS) {
      throw new ImportFileError('MALFORMED', `The first row names more than ${MAX_COLUMNS} columns.`);
    }
    const remainder = next.value.slice(at + 1);
    const close = () => iterator.return(undefined);
    const rest = (async function* () {
      try {
        yield remainder;
        for (let batch = await iterator.next(); !batch.done; batch = await iterator.next()) yield batch.value;
      } finally {
        await close();
      }
    })();
    return { headers, rest, close };
  }
}

async function openCsv(path: string, head: Buffer, options: ReadOptions): Promise<OpenedImport> {
  const { encoding, skip } = await detectEncoding(path, head, options.encoding);
  const delimiter = options.delimiter ?? detectDelimiter(decodeHead(head, encoding, skip));
  const raw = csvRecords(() => utf8Source(path, encoding, skip), delimiter, options.limits);
  const { headers, rest, close } = await withHeader(raw);
  const detected: Detected = { format: 'csv', encoding, delimiter, sheet: null, headers };
  return { detected, rows: closing(shapeRows(rest, headers.length, options.limits), close) };
}

async function openJson(path: string, head: Buffer, options: ReadOptions, ndjson: boolean): Promise<OpenedImport> {
  const { encoding, skip } = await detectEncoding(path, head, options.encoding);
  const cell = maxCellChars(options.limits);
  const items = (): AsyncGenerator<JsonItem> =>
    ndjson
      ? ndjsonItems(utf8Source(path, encoding, skip), cell * RECORD_CELLS_FACTOR)
      : jsonArrayItems(utf8Source(path, encoding, skip), cell, cell * RECORD_CELLS_FACTOR);
  // Headers are every key in order of first appearance, so a first pass reads the keys only.
  const keys = new KeyOrder();
  let count = 0;
  for await (const item of items()) {
    keys.add(item);
    count++;
  }
  if (count === 0) throw empty();
  if (keys.keys.length === 0) throw noHeader();
  const detected: Detected = {
    format: ndjson ? 'ndjson' : 'json',
    encoding,
    delimiter: null,
    sheet: null,
    headers: keys.keys,
  };
  return { detected, rows: shapeRows(asBatches(items(), keys), keys.keys.length, options.limits) };
}

async function openXlsx(path: string, options: ReadOptions): Promise<OpenedImport> {
  const zip = await openXlsxZip(path, options.limits);
  let book: Workbook | null = null;
  try {
    book = await readWorkbook(zip, options.limits);
    // The first sheet a user sees: Excel opens on the first one not hidden.
    const sheet =
      options.sheet === undefined
        ? (book.sheets.find((s) => !s.hidden) ?? book.sheets[0])
        : book.sheets.find((s) => s.name === options.sheet);
    if (!sheet) {
      const names = book.sheets.map((s) => `"${s.name}"`).join(', ');
      throw options.sheet === undefined
        ? empty()
        : new ImportFileError(
            'NO_SUCH_SHEET',
            `The workbook has no sheet "${options.sheet}"; its sheets are ${names}.`,
          );
    }
    if (!zip.has(sheet.path))
      throw new ImportFileError('UNREADABLE', 'The Excel file is damaged or is not an .xlsx file.');
    const raw = sheetRows(await zip.open(sheet.path), book, maxCellChars(options.limits));
    const { headers, rest, close } = await withHeader(raw);
    const { sharedStrings } = book;
    const closeAll = async () => {
      await close();
      zip.close();
      sharedStrings.release();
    };
    const rows = async function* (): AsyncGenerator<RawRow[]> {
      try {
        yield* rest;
      } finally {
        await closeAll();
      }
    };
    const detected: Detected = { format: 'xlsx', encoding: null, delimiter: null, sheet: sheet.name, headers };
    return { detected, rows: closing(shapeRows(rows(), headers.length, options.limits), closeAll) };
  } catch (error) {
    zip.close();
    book?.sharedStrings.release();
    throw error;
  }
}

/**
 * The content type decides, except where the bytes say otherwise for sure: a zip is read as
 * XLSX, anything else never is; `application/json` covers an array and NDJSON alike.
 */
function chooseFormat(given: ImportFormat | undefined, head: Buffer): ImportFormat {
  const sniffed = sniffFormat(head);
  if (sniffed === 'xlsx' || given === undefined) return sniffed;
  if (given === 'xlsx') {
    throw new ImportFileError('UNREADABLE', 'The Excel file is damaged or is not an .xlsx file.');
  }
  if ((given === 'json' || given === 'ndjson') && (sniffed === 'json' || sniffed === 'ndjson')) return sniffed;
  return given;
}

/**
 * Opens an uploaded file spooled on disk: detects its format, encoding, delimiter, sheet and
 * header row, and returns its rows read from disk as they are consumed (never the whole file in
 * memory). Whole-file problems throw ImportFileError, here or while iterating; row-level
 * problems travel on the row. The file stays open until the rows are read to the end, a loop
 * over them stops (`break`), or `rows.return()` is called: a caller that only wants `detected`
 * calls `rows.return()`.
 */
export async function openImportFile(path: string, options: ReadOptions): Promise<OpenedImport> {
  const head = await readHead(path);
  if (head.length === 0) throw empty();
  const format = chooseFormat(options.format, head);
  switch (format) {
    case 'xlsx':
      return openXlsx(path, options);
    case 'json':
    case 'ndjson':
      return openJson(path, head, options, format === 'ndjson');
    default:
      return openCsv(path, head, options);
  }
}
