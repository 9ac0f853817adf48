import { USER_COLUMN_KEYS, type UserColumnKey } from '@app/contracts';
import { TABLE_DENSITIES, type TableDensity, useStoredState } from '@app/ui';
import type { VisibilityState } from '@tanstack/react-table';
import { useMemo } from 'react';
import { LOCKED_COLUMNS } from './users-columns';

/** Keys in localStorage: the density's is part of the product contract (SPEC §10). */
export const DENSITY_STORAGE_KEY = 'users_table_density';
export const HIDDEN_COLUMNS_STORAGE_KEY = 'users_table_hidden_columns';

const parseDensity = (raw: string | null): TableDensity =>
  TABLE_DENSITIES.includes(raw as TableDensity) ? (raw as TableDensity) : 'comfortable';

// Stored as the hidden ones, so a column added later shows up by default.
function parseHidden(raw: string | null): UserColumnKey[] {
  try {
    const list: unknown = JSON.parse(raw ?? '[]');
    if (!Array.isArray(list)) return [];
    return USER_COLUMN_KEYS.filter((key) => list.includes(key) && !LOCKED_COLUMNS.has(key));
  } catch {
    return [];
  }
}

/** Row density and hidden columns, remembered per browser. */
export function useTablePreferences() {
  const [density, setDensity] = useStoredState(DENSITY_STORAGE_KEY, parseDensity);
  const [hidden, setHidden] = useStoredState(HIDDEN_COLUMNS_STORAGE_KEY, parseHidden, JSON.stringify);

  return useMemo(() => {
    const visibility: VisibilityState = Object.fromEntries(hidden.map((key) => [key, false]));
    const visibleColumns = USER_COLUMN_KEYS.filter((key) => !hidden.includes(key));
    return {
      density,
      setDensity,
      hidden,
      visibility,
      /** The contract's columns on screen, in table order: what an export should contain. */
      visibleColumns,
      setColumnVisible: (key: UserColumnKey, visible: boolean) =>
        setHidden(visible ? hidden.filter((k) => k !== key) : [...hidden, key]),
      showAllColumns: () => setHidden([]),
    };
  }, [density, setDensity, hidden, setHidden]);
}

export type TablePreferences = ReturnType<typeof useTablePreferences>;
