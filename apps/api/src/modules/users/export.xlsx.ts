import { PassThrough, type Readable } from 'node:stream';
import type { UserRow } from '@app/contracts';
import ExcelJS from 'exceljs';
import { type ExportColumn, sheetValue } from './export.columns.js';

const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** Widths in characters: wide enough for typical values without the user resizing every column. */
const WIDTH: Record<ExportColumn['type'], number> = { number: 10, boolean: 9, datetime: 20, string: 32 };

/** Resolves once `stream` can take more, or has closed (a closed download must not hang the writer). */
function writable(stream: PassThrough): Promise<void> {
  if (!stream.writableNeedDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

async function writeWorkbook(batches: AsyncIterable<UserRow[]>, columns: readonly ExportColumn[], body: PassThrough) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: body, useStyles: true, useSharedStrings: false });
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
    // The zip writer does not push back on rows; waiting for the body paces batches to the client.
    await writable(body);
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
