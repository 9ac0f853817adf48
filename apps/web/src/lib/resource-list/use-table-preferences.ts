import { TABLE_DENSITIES, type TableDensity, useStoredState } from '@app/ui';
import type { VisibilityState } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { ResourceListPreferences } from './define-resource-list';

const NONE: readonly never[] = [];
const parseDensity = (raw: string | null): TableDensity =>
  TABLE_DENSITIES.includes(raw as TableDensity) ? (raw as TableDensity) : 'comfortable';
const fixedDensity = (): TableDensity => 'comfortable';

/**
 * Row density and hidden columns of one resource's table, remembered per browser under
 * `<prefix>_density` and `<prefix>_hidden_columns`. Stored as the hidden ones, so a column
 * added later shows up by default; `locked` columns can never be hidden. A list declared
 * without preferences has a fixed view: every column, comfortable rows, nothing stored.
 */
export function useTablePreferences<K extends string>(spec: ResourceListPreferences<K> | undefined) {
  const columns: readonly K[] = spec?.columns ?? NONE;
  const locked = spec?.locked;
  const parseHidden = useMemo(
    () =>
      (raw: string | null): K[] => {
        try {
          const list: unknown = JSON.parse(raw ?? '[]');
          if (!Array.isArray(list)) return [];
          return columns.filter((key) => list.includes(key) && !locked?.has(key));
        } catch {
          return [];
        }
      },
    [columns, locked],
  );
  const prefix = spec?.storagePrefix ?? 'fixed_view';
  const [density, setDensity] = useStoredState(`${prefix}_density`, spec ? parseDensity : fixedDensity);
  const [hidden, setHidden] = useStoredState(`${prefix}_hidden_columns`, parseHidden, JSON.stringify);

  return useMemo(() => {
    const visibility: VisibilityState = Object.fromEntries(hidden.map((key) => [key, false]));
    return {
      /** False for a fixed view: the toolbar offers no column or density controls. */
      adjustable: spec !== undefined,
      density,
      setDensity,
      hidden,
      visibility,
      /** The contract's columns on screen, in table order: what an export should contain. */
      visibleColumns: columns.filter((key) => !hidden.includes(key)),
      setColumnVisible: (key: K, visible: boolean) =>
        setHidden(visible ? hidden.filter((k) => k !== key) : [...hidden, key]),
      showAllColumns: () => setHidden([]),
    };
  }, [spec, density, setDensity, hidden, setHidden, columns]);
}

export type TablePreferences<K extends string = string> = ReturnType<typeof useTablePreferences<K>>;
