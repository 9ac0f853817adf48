import { useEffect, useRef } from 'react';
import { cn } from './cn';
import { XIcon } from './icons';

export interface FilterChip {
  id: string;
  /** What is filtered ("Status"). */
  label: string;
  /** By what ("Inactive"). */
  value: string;
}

export interface FilterChipsProps {
  chips: readonly FilterChip[];
  onRemove: (id: string) => void;
  onClearAll: () => void;
  /** Accessible name of the list ("Active filters"). */
  label: string;
  /** Accessible name of a chip's remove button ("Remove filter Status: Inactive"). */
  removeLabel: (chip: FilterChip) => string;
  clearAllLabel: string;
  className?: string;
}

/** The filters in force, each removable; nothing is rendered when there are none. */
export function FilterChips({
  chips,
  onRemove,
  onClearAll,
  label,
  removeLabel,
  clearAllLabel,
  className,
}: FilterChipsProps) {
  const list = useRef<HTMLUListElement>(null);
  // After a chip goes, focus the one that took its place, so keyboard users stay in the list.
  const refocusAt = useRef<number | null>(null);
  useEffect(() => {
    const index = refocusAt.current;
    if (index === null) return;
    refocusAt.current = null;
    const buttons = list.current?.querySelectorAll<HTMLButtonElement>('button');
    if (buttons && buttons.length > 0) buttons[Math.min(index, buttons.length - 1)]?.focus();
  });

  if (chips.length === 0) return null;
  return (
    <div className={cn('flex flex-wrap items-center gap-2', className)}>
      <ul ref={list} aria-label={label} className="flex flex-wrap items-center gap-1.5">
        {chips.map((chip, index) => (
          <li
            key={chip.id}
            className="inline-flex h-7 max-w-full items-center gap-1 rounded-full border border-border bg-surface pr-1 pl-2.5 text-xs shadow-xs"
          >
            <span className="text-muted-foreground">{chip.label}:</span>
            <span className="max-w-48 truncate font-medium text-foreground">{chip.value}</span>
            <button
              type="button"
              aria-label={removeLabel(chip)}
              onClick={() => {
                refocusAt.current = index;
                onRemove(chip.id);
              }}
              className="ml-0.5 flex size-5 items-center justify-center rounded-full text-muted-foreground hover:bg-surface-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
            >
              <XIcon className="size-3" />
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        onClick={onClearAll}
        className="h-7 rounded-md px-2 text-xs font-medium text-muted-foreground hover:bg-surface-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
      >
        {clearAllLabel}
      </button>
    </div>
  );
}
