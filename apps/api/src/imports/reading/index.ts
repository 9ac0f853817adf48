/** The reading layer of user imports: files on disk in, header-aligned text rows out. */
export { openImportFile } from './open.js';
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
