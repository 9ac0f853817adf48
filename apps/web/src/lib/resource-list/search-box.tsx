import { SearchInput } from '@app/ui';
import { useEffect, useRef, useState } from 'react';

export const SEARCH_DEBOUNCE_MS = 300;

export interface SearchBoxProps {
  /** The search in force (from the URL). */
  value: string;
  /** `replace`: later commits of one typing burst replace the history entry the first one added. */
  onCommit: (q: string, options: { replace: boolean }) => void;
  /** The resource's words: the field's label, its clear button, the hint inside it. */
  strings: { label: string; clear: string; placeholder: string };
  className?: string;
}

/**
 * The input is local state, so typing never waits for the network or the router; the URL (and
 * the query) follow 300 ms after the last keystroke. One typing burst is one history entry.
 */
export function SearchBox({ value, onCommit, strings: t, className }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const committed = useRef(value);
  const inBurst = useRef(false);

  // The URL changed underneath (Back, a chip removed, "Clear all"): show what is in force.
  useEffect(() => {
    if (value !== committed.current) {
      committed.current = value;
      setText(value);
      inBurst.current = false;
    }
  }, [value]);

  useEffect(() => {
    const next = text.trim();
    if (next === committed.current) return;
    const timer = window.setTimeout(() => {
      committed.current = next;
      onCommit(next, { replace: inBurst.current });
      inBurst.current = true;
    }, SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, onCommit]);

  return (
    <SearchInput
      value={text}
      onValueChange={setText}
      onBlur={() => {
        inBurst.current = false;
      }}
      label={t.label}
      clearLabel={t.clear}
      placeholder={t.placeholder}
      maxLength={255}
      className={className}
    />
  );
}
