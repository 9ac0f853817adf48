/**
 * How a column's values are shown and exported: `json` values (ids, before/after maps) are
 * written as JSON text in CSV and XLSX cells and kept as structures in a JSON export; `list`
 * values (names) are joined with ", " in CSV and XLSX cells — as a person types them, and as an
 * import reads a roles cell back — and kept as arrays in a JSON export.
 */
export type ColumnType = 'number' | 'string' | 'boolean' | 'datetime' | 'json' | 'list';

/** One column of a resource's table and exports: its key in the row, its label, its type. */
export interface ColumnDefinition<K extends string = string> {
  readonly key: K;
  readonly label: string;
  readonly type: ColumnType;
}
