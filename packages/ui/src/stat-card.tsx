import type { ReactNode } from 'react';
import { cn } from './cn';
import { Skeleton } from './skeleton';

export interface StatCardProps {
  label: string;
  /** The figure; `null` while it loads. */
  value: ReactNode | null;
  icon?: ReactNode;
  /** Makes the card a toggle button (e.g. "filter by this"); `active` is its pressed state. */
  onClick?: () => void;
  active?: boolean;
  className?: string;
}

/** A labelled figure; clickable when it stands for a view of the data. */
export function StatCard({ label, value, icon, onClick, active = false, className }: StatCardProps) {
  const body = (
    <>
      <span className="flex items-center justify-between gap-2 text-xs font-medium text-muted-foreground">
        <span className="truncate">{label}</span>
        {icon ? <span className="shrink-0 [&_svg]:size-4">{icon}</span> : null}
      </span>
      <span className="mt-1.5 flex h-8 items-center text-2xl font-semibold tracking-tight text-foreground tabular-nums">
        {value === null ? <Skeleton className="h-6 w-14" /> : value}
      </span>
    </>
  );
  const base = cn(
    'block w-full rounded-xl border bg-surface px-4 py-3.5 text-left shadow-xs',
    active ? 'border-primary/60 ring-1 ring-primary/40' : 'border-border',
    className,
  );
  if (!onClick) return <div className={base}>{body}</div>;
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn(
        base,
        'transition-colors hover:border-foreground/20 hover:bg-surface-muted/40',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
      )}
    >
      {body}
    </button>
  );
}
