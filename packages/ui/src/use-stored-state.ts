import { useCallback, useState } from 'react';

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null; // storage disabled (private mode, policy): fall back to the default
  }
}

/**
 * State remembered in `localStorage[key]`. Read synchronously on mount, so a restored preference
 * is there on the first paint; `parse` turns whatever is stored (or null) into a valid value.
 */
export function useStoredState<T>(
  key: string,
  parse: (raw: string | null) => T,
  serialize: (value: T) => string = String,
): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => parse(read(key)));
  const update = useCallback(
    (next: T) => {
      setValue(next);
      try {
        window.localStorage.setItem(key, serialize(next));
      } catch {
        // Not persisted; the choice still holds for this visit.
      }
    },
    [key, serialize],
  );
  return [value, update];
}
