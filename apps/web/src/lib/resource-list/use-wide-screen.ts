import { useSyncExternalStore } from 'react';

/** Tailwind's `sm` breakpoint (40rem = 640 px): below it a list shows cards, at and above it a table. */
const WIDE = '(min-width: 40rem)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {};
  const query = window.matchMedia(WIDE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

// Without matchMedia (a test DOM) the screen counts as wide: the table is the reference layout.
const isWide = () => typeof window.matchMedia !== 'function' || window.matchMedia(WIDE).matches;

/** Whether the viewport is at least `sm` wide; follows rotation and window resizes. */
export function useWideScreen(): boolean {
  return useSyncExternalStore(subscribe, isWide, () => true);
}
