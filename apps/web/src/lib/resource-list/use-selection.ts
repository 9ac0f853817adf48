import type { OnChangeFn, RowSelectionState } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';

/**
 * "Select all N matching" was used: every row the view's query matches, whatever its size, less
 * the rows then unticked. Acted on as the query itself (a background job), never as a list of ids.
 */
export interface MatchingSelection {
  /** How many matched when it was chosen (a lower bound when `exact` is false: "10,000+"). */
  total: number;
  exact: boolean;
  /** Rows unticked since, by id. */
  except: readonly number[];
}

interface StoredSelection {
  /** The query and filters the selection was made under (see `scopeKey`). */
  scope: string;
  rows: RowSelectionState;
  matching: MatchingSelection | null;
}

const empty = (scope: string): StoredSelection => ({ scope, rows: {}, matching: null });

/** The ticks of a page's rows under a matching selection: all but the ones left out. */
const pageTicks = (matching: MatchingSelection, pageIds: readonly number[]): RowSelectionState =>
  Object.fromEntries(pageIds.filter((id) => !matching.except.includes(id)).map((id) => [String(id), true]));

/**
 * Selected rows by id, kept across pages, sort and page size — or every matching row (less
 * those unticked). A new search or filter starts a fresh selection: acting on rows the current
 * view no longer shows would surprise.
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
  const { matching } = current;
  const count = matching ? Math.max(0, matching.total - matching.except.length) : ids.length;

  /** What the table shows ticked on a page of these ids. */
  const rowsFor = useCallback(
    (pageIds: readonly number[]): RowSelectionState => (matching ? pageTicks(matching, pageIds) : current.rows),
    [matching, current.rows],
  );

  /** The table's ticks changed on a page of `pageIds`; under a matching selection they move `except`. */
  const change = useCallback(
    (updater: Parameters<OnChangeFn<RowSelectionState>>[0], pageIds: readonly number[]) =>
      setStored((previous) => {
        const base = previous.scope === scope ? previous : empty(scope);
        if (base.matching) {
          const next = typeof updater === 'function' ? updater(pageTicks(base.matching, pageIds)) : updater;
          const except = new Set(base.matching.except);
          for (const id of pageIds) {
            if (next[String(id)]) except.delete(id);
            else except.add(id);
          }
          if (base.matching.exact && except.size >= base.matching.total) return empty(scope);
          return { ...base, matching: { ...base.matching, except: [...except] } };
        }
        const rows = typeof updater === 'function' ? updater(base.rows) : updater;
        return { scope, rows, matching: null };
      }),
    [scope],
  );

  const selectMatching = useCallback(
    (total: number, exact: boolean) => setStored({ scope, rows: {}, matching: { total, exact, except: [] } }),
    [scope],
  );

  const clear = useCallback(() => setStored(empty(scope)), [scope]);

  const deselect = useCallback(
    (id: number) =>
      setStored((previous) => {
        if (previous.matching) {
          if (previous.matching.except.includes(id)) return previous;
          return { ...previous, matching: { ...previous.matching, except: [...previous.matching.except, id] } };
        }
        if (!previous.rows[String(id)]) return previous;
        const { [String(id)]: _gone, ...rows } = previous.rows;
        return { ...previous, rows };
      }),
    [],
  );

  return { ids, matching, count, rowsFor, change, selectMatching, clear, deselect };
}

export type Selection = ReturnType<typeof useSelection>;
