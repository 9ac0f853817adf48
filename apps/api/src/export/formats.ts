import type { Readable } from 'node:stream';
import type { ExportFormat } from '@app/contracts';
import type { ExportColumn } from './columns.js';
import { csvBody } from './csv.js';
import { jsonBody } from './json.js';

/** What a resource's export tells the writer beyond its rows: the name a workbook's sheet gets. */
export interface ExportMeta {
  sheetName: string;
}

export interface ExportFormatWriter {
  extension: string;
  contentType: string;
  write<Row extends object>(
    batches: AsyncIterable<Row[]>,
    columns: readonly ExportColumn<Row>[],
    meta: ExportMeta,
  ): Promise<Readable>;
}

export const EXPORT_WRITERS: Record<ExportFormat, ExportFormatWriter> = {
  csv: {
    extension: 'csv',
    contentType: 'text/csv; charset=utf-8',
    write: async (batches, columns) => csvBody(batches, columns),
  },
  xlsx: {
    extension: 'xlsx',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    // The workbook writer and its zip library load with the first workbook asked for, not when
    // the API starts (issue 41, idle RSS).
    write: async (batches, columns, meta) => (await import('./xlsx.js')).xlsxBody(batches, columns, meta.sheetName),
  },
  json: {
    extension: 'json',
    contentType: 'application/json; charset=utf-8',
    write: async (batches, columns) => jsonBody(batches, columns),
  },
};

/** The media types a download may have, for the OpenAPI document. */
export const EXPORT_MEDIA_TYPES = Object.values(EXPORT_WRITERS).map(
  (writer) => writer.contentType.split(';')[0] as string,
);
