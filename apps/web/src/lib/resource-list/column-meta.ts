import type { RowData } from '@tanstack/react-table';

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData extends RowData, TValue> {
    /** The column's name as text: the phone card's label for its value, the column menu's entry. */
    label?: string;
    /** The cell that heads a phone card (the record's name or link); else the first data column. */
    primary?: boolean;
    /**
     * A column beside the declared set (a custom attribute's): off until the viewer shows it, the
     * choice remembered as the other columns'.
     */
    optional?: boolean;
  }
}

/** Columns the kit places itself on a phone card: the checkbox beside it, the menu in its corner. */
export const SELECT_COLUMN = 'select';
export const ACTIONS_COLUMN = 'actions';
