import type { ReactNode } from 'react';
import { cn } from './cn';

export interface DescriptionItem {
  /** Stable key; defaults to the term when that is a string. */
  id?: string;
  term: ReactNode;
  description: ReactNode;
}

/** Label/value pairs of a record: side by side on wide screens, stacked on narrow ones. */
export function DescriptionList({ items, className }: { items: readonly DescriptionItem[]; className?: string }) {
  return (
    <dl className={cn('divide-y divide-border', className)}>
      {items.map((item, index) => (
        <div
          key={item.id ?? (typeof item.term === 'string' ? item.term : index)}
          className="grid gap-1 px-5 py-3 sm:grid-cols-3 sm:gap-4"
        >
          <dt className="text-sm text-muted-foreground">{item.term}</dt>
          <dd className="min-w-0 text-sm break-words text-foreground sm:col-span-2">{item.description}</dd>
        </div>
      ))}
    </dl>
  );
}
