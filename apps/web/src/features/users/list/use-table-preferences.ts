import { USER_COLUMN_KEYS } from '@app/contracts';
import { useTablePreferences as useResourceTablePreferences } from '../../../lib/resource-list/use-table-preferences';
import { LOCKED_COLUMNS } from './users-columns';

/** Keys in localStorage: the density's is part of the product contract (SPEC §10). */
export const DENSITY_STORAGE_KEY = 'users_table_density';
export const HIDDEN_COLUMNS_STORAGE_KEY = 'users_table_hidden_columns';

/** The users table's row density and hidden columns, remembered per browser. */
export function useTablePreferences() {
  return useResourceTablePreferences({ prefix: 'users_table', columns: USER_COLUMN_KEYS, locked: LOCKED_COLUMNS });
}

export type TablePreferences = ReturnType<typeof useTablePreferences>;
