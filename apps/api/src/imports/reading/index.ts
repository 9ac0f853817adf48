/** The reading layer of user imports: files on disk in, header-aligned text rows out. */
import type { OpenedImport, ReadOptions } from './types.js';

/**
 * Opens an import file (open.ts). Its readers — csv-parse, yauzl, saxes, stream-json, iconv-lite,
 * numfmt — load with the first import, not when the API starts: an instance that never imports
 * keeps them out of its memory (issue 41, idle RSS).
 */
export async function openImportFile(path: string, options: ReadOptions): Promise<OpenedImport> {
  const { openImportFile: open } = await import('./open.js');
  return open(path, options);
}
export { ImportFileError, type ImportFileErrorCode } from './errors.js';
export {
  type AttributeHeader,
  type ColumnMapping,
  type ColumnOverrides,
  type ImportField,
  headerKey,
  looksLikePasswordHash,
  matchColumns,
} from './columns.js';
export { type ImportRecord, parseActive, recordOf, splitRoles } from './record.js';
export * from './types.js';
