import { TABLE_DENSITIES, type TableDensity, useStoredState } from '@app/ui';
import type { VisibilityState } from '@tanstack/react-table';
import { useMemo } from 'react';

const parseDensity = (raw: string | null): TableDensity =>
  TABLE_DENSITIES.includes(raw as TableDensity) ? (raw as TableDensity) : 'comfortable';

/**
 * Row density and hidden columns of one resource's table, remembered per browser under
 * `<prefix>_density` and `<prefix>_hidden_columns`. Stored as the hidden ones, so a column
 * added later shows up by default; `locked` columns can never be hidden.
 */
export function useTablePreferences<K extends string>({
  prefix,
  columns,
  locked,
}: {
  prefix: string;
  columns: readonly K[];
  locked: ReadonlySet<string>;
}) {
  const parseHidden = useMemo(
    () =>
      (raw: string | null): K[] => {
        try {
          const list: unknown = JSON.parse(raw ?? '[]');
          if (!Array.isArray(list)) return [];
          return columns.filter((key) => list.includes(key) && !locked.has(key));
        } catch {
          return [];
        }
      },
    [columns, locked],
  );
  const [density, setDensity] = useStoredState(`${prefix}_density`, parseDensity);
  const [hidden, setHidden] = useStoredState(`${prefix}_hidden_columns`, parseHidden, JSON.stringify);

  return useMemo(() => {
    const visibility: VisibilityState = Object.fromEntries(hidden.map((key) => [key, false]));
    const visibleColumns = columns.filter((key) => !hidden.includes(key));
    return {
      density,
      setDensity,
      hidden,
      visibility,
      /** The contract's columns on screen, in table order: what an export should contain. */
      visibleColumns,
      setColumnVisible: (key: K, visible: boolean) =>
        setHidden(visible ? hidden.filter((k) => k !== key) : [...hidden, key]),
      showAllColumns: () => setHidden([]),
    };
  }, [density, setDensity, hidden, setHidden, columns]);
}
