import { TABLE_DENSITIES, type TableDensity, useStoredState } from '@app/ui';
import type { VisibilityState } from '@tanstack/react-table';
import { useMemo } from 'react';
import type { ResourceListPreferences } from './define-resource-list';

const NONE: readonly never[] = [];

/** A stored list of column keys, kept to those still offered. */
function readKeys<K extends string>(raw: string | null, offered: readonly K[], locked?: ReadonlySet<K>): K[] {
  try {
    const list: unknown = JSON.parse(raw ?? '[]');
    if (!Array.isArray(list)) return [];
    return offered.filter((key) => list.includes(key) && !locked?.has(key));
  } catch {
    return [];
  }
}
const parseDensity = (raw: string | null): TableDensity =>
  TABLE_DENSITIES.includes(raw as TableDensity) ? (raw as TableDensity) : 'comfortable';
const fixedDensity = (): TableDensity => 'comfortable';

/**
 * Row density and hidden columns of one resource's table, remembered per browser under
 * `<prefix>_density` and `<prefix>_hidden_columns`. Stored as the hidden ones, so a column
 * added later shows up by default; `locked` columns can never be hidden. `optional` columns
 * (beside the declared set: a custom attribute's) are the other way round, off until shown, and
 * stored as the shown ones under `<prefix>_shown_columns`; one no longer offered is forgotten.
 * A list declared without preferences has a fixed view: every column, comfortable rows, nothing stored.
 */
export function useTablePreferences<K extends string>(
  spec: ResourceListPreferences<K> | undefined,
  optional: readonly string[] = NONE,
) {
  const columns: readonly K[] = spec?.columns ?? NONE;
  const locked = spec?.locked;
  const parseHidden = useMemo(() => (raw: string | null) => readKeys(raw, columns, locked), [columns, locked]);
  const prefix = spec?.storagePrefix ?? 'fixed_view';
  const [density, setDensity] = useStoredState(`${prefix}_density`, spec ? parseDensity : fixedDensity);
  const [hidden, setHidden] = useStoredState(`${prefix}_hidden_columns`, parseHidden, JSON.stringify);
  // Optional columns arrive with the list's answer: the stored choice is read whole and kept to
  // the offered ones when used, so nothing is forgotten while the answer loads.
  const [shownStored, setShown] = useStoredState(`${prefix}_shown_columns`, rawList, JSON.stringify);

  return useMemo(() => {
    const shown = optional.filter((key) => shownStored.includes(key));
    const visibility: VisibilityState = Object.fromEntries([
      ...hidden.map((key) => [key, false]),
      ...optional.filter((key) => !shown.includes(key)).map((key) => [key, false]),
    ]);
    const isOptional = (key: string) => optional.includes(key);
    return {
      /** False for a fixed view: the toolbar offers no column or density controls. */
      adjustable: spec !== undefined,
      density,
      setDensity,
      hidden,
      visibility,
      /** The optional columns offered, in table order. */
      optional,
      isVisible: (key: string) => (isOptional(key) ? shown.includes(key) : !hidden.includes(key as K)),
      /** The columns on screen, in table order (the declared ones, then the optional ones): what an export should contain. */
      visibleColumns: [...columns.filter((key) => !hidden.includes(key)), ...shown] as readonly string[],
      setColumnVisible: (key: string, visible: boolean) => {
        if (isOptional(key)) setShown(visible ? [...shown, key] : shown.filter((k) => k !== key));
        else if (columns.includes(key as K)) {
          setHidden(visible ? hidden.filter((k) => k !== key) : [...hidden, key as K]);
        }
      },
      showAllColumns: () => {
        setHidden([]);
        setShown([...optional]);
      },
    };
  }, [spec, density, setDensity, hidden, setHidden, columns, optional, shownStored, setShown]);
}

/** The strings of a stored list, whatever they name. */
function rawList(raw: string | null): string[] {
  try {
    const list: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

export type TablePreferences<K extends string = string> = ReturnType<typeof useTablePreferences<K>>;
