import type { OnChangeFn, RowSelectionState } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';

/** "Select all N matching" was used: how many ids came back, of how many matching. */
export interface MatchingSelection {
  count: number;
  total: number;
  truncated: boolean;
}

interface StoredSelection {
  /** The query and filters the selection was made under (see `scopeKey`). */
  scope: string;
  rows: RowSelectionState;
  matching: MatchingSelection | null;
}

const empty = (scope: string): StoredSelection => ({ scope, rows: {}, matching: null });

/**
 * Selected rows by id, kept across pages, sort and page size. A new search or filter starts a
 * fresh selection: acting on rows the current view no longer shows would surprise.
 */
export function useSelection(scope: string) {
  const [stored, setStored] = useState<StoredSelection>(() => empty(scope));
  const current = stored.scope === scope ? stored : empty(scope);

  const ids = useMemo(
    () =>
      Object.entries(current.rows)
        .filter(([, on]) => on)
        .map(([id]) => Number(id)),
    [current.rows],
  );

  const onRowSelectionChange: OnChangeFn<RowSelectionState> = useCallback(
    (updater) =>
      setStored((previous) => {
        const base = previous.scope === scope ? previous.rows : {};
        const rows = typeof updater === 'function' ? updater(base) : updater;
        return { scope, rows, matching: null };
      }),
    [scope],
  );

  const selectMatching = useCallback(
    (matchingIds: readonly number[], total: number, truncated: boolean) =>
      setStored({
        scope,
        rows: Object.fromEntries(matchingIds.map((id) => [String(id), true])),
        matching: { count: matchingIds.length, total, truncated },
      }),
    [scope],
  );

  const clear = useCallback(() => setStored(empty(scope)), [scope]);

  const deselect = useCallback(
    (id: number) =>
      setStored((previous) => {
        if (!previous.rows[String(id)]) return previous;
        const { [String(id)]: _gone, ...rows } = previous.rows;
        return { ...previous, rows, matching: null };
      }),
    [],
  );

  return { rows: current.rows, ids, matching: current.matching, onRowSelectionChange, selectMatching, clear, deselect };
}

export type Selection = ReturnType<typeof useSelection>;
