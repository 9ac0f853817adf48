import type { Readable } from 'node:stream';
import type { ExportFormat, UserRow } from '@app/contracts';
import type { ExportColumn } from './export.columns.js';
import { csvBody } from './export.csv.js';
import { jsonBody } from './export.json.js';
import { xlsxBody } from './export.xlsx.js';

export interface ExportFormatWriter {
  extension: string;
  contentType: string;
  write(batches: AsyncIterable<UserRow[]>, columns: readonly ExportColumn[]): Readable;
}

export const EXPORT_WRITERS: Record<ExportFormat, ExportFormatWriter> = {
  csv: { extension: 'csv', contentType: 'text/csv; charset=utf-8', write: csvBody },
  xlsx: {
    extension: 'xlsx',
    contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    write: xlsxBody,
  },
  json: { extension: 'json', contentType: 'application/json; charset=utf-8', write: jsonBody },
};

/** The media types a download may have, for the OpenAPI document. */
export const EXPORT_MEDIA_TYPES = Object.values(EXPORT_WRITERS).map(
  (writer) => writer.contentType.split(';')[0] as string,
);
