import { PassThrough, type Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { UserRow } from '@app/contracts';
import type ExcelJS from 'exceljs';
import { type ExportColumn, sheetValue } from './export.columns.js';

const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** Widths in characters: wide enough for typical values without the user resizing every column. */
const WIDTH: Record<ExportColumn['type'], number> = { number: 10, boolean: 9, datetime: 20, string: 32 };

/** Sheet XML waiting to be compressed beyond this, the writer waits before reading more rows. */
const MAX_BACKLOG_BYTES = 1024 * 1024;

/** The buffer counts every stream implementation keeps (archiver's readable-stream copy has no `writableLength`). */
type Buffered = { _writableState?: { length: number }; _readableState?: { length: number } };

/**
 * Bytes of sheet XML written but not yet taken by the zip. exceljs's sheet buffer pipes into the
 * zip without waiting for it (no backpressure), so a fast database would pile the whole sheet up
 * in memory; this reads its pipe targets (0 if exceljs ever changes, which only loses the pacing).
 */
function backlog(sheet: ExcelJS.Worksheet): number {
  const buffer = (sheet as unknown as { stream?: { pipes?: Buffered[] } }).stream;
  return (buffer?.pipes ?? []).reduce(
    (n, p) => n + (p._writableState?.length ?? 0) + (p._readableState?.length ?? 0),
    0,
  );
}

/** Waits while the zip is behind (slow compression, or a slow client holding it back); not past a closed download. */
async function caughtUp(sheet: ExcelJS.Worksheet, body: PassThrough): Promise<void> {
  while (!body.destroyed && (body.writableNeedDrain || backlog(sheet) > MAX_BACKLOG_BYTES)) await sleep(5);
}

async function writeWorkbook(batches: AsyncIterable<UserRow[]>, columns: readonly ExportColumn[], body: PassThrough) {
  // Loaded at the first XLSX export, not at start: exceljs and its zip stack weigh ~28 MB of RSS
  // that an API serving no spreadsheet should not carry.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: body, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Users', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map((column) => ({
    header: column.label,
    key: column.key,
    width: Math.max(WIDTH[column.type], column.label.length + 2),
    ...(column.type === 'datetime' ? { style: { numFmt: DATE_TIME_FORMAT } } : {}),
  }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();
  for await (const batch of batches) {
    for (const row of batch) sheet.addRow(columns.map((column) => sheetValue(row, column))).commit();
    await caughtUp(sheet, body);
    // Leaving the loop closes the batch reader: no further query is issued.
    if (body.destroyed) return;
  }
  sheet.commit();
  await workbook.commit();
}

/**
 * A real workbook, written as the rows arrive: one sheet "Users", typed cells (numbers,
 * booleans, dates with a date-time format), a bold header row frozen in place.
 */
export function xlsxBody(batches: AsyncIterable<UserRow[]>, columns: readonly ExportColumn[]): Readable {
  const body = new PassThrough();
  writeWorkbook(batches, columns, body).catch((error: unknown) => body.destroy(error as Error));
  return body;
}
