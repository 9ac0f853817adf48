import { cn } from '@app/ui';
import { Check, Lock, Minus } from 'lucide-react';
import { type CSSProperties, useEffect, useRef } from 'react';
import { useRolesMessages } from '../i18n/roles-messages';

/** The parts of the permission matrix (permission-matrix.tsx): one permission's cell, and its box. */

/** A permission as the matrix shows it: a row of the catalogue (GET /permissions). */
export interface PermissionMatrixRow {
  name: string;
  resource: string;
  action: string;
  description: string;
  /** The server's decision for the caller: false locks the cell, with `reason`. Omitted: grantable. */
  grantable?: boolean;
  reason?: string | undefined;
}

export interface MatrixCellProps {
  id: string;
  cell: PermissionMatrixRow;
  held: boolean;
  readOnly: boolean;
  style: CSSProperties;
  tipAlign: 'start' | 'end';
  ref?: ((element: HTMLInputElement | null) => void) | undefined;
  onToggle: (on: boolean) => void;
}

/** One permission: its box, and (stacked, or for a screen reader) its label, description and lock reason. */
export function MatrixCell({ id, cell, held, readOnly, style, tipAlign, ref, onToggle }: MatrixCellProps) {
  const m = useRolesMessages();
  const words = m.permissions.names[cell.name];
  const label = words?.label ?? cell.name;
  const isLocked = !readOnly && cell.grantable === false;
  const reasonId = `${id}-reason`;
  return (
    <li
      style={style}
      title={isLocked ? undefined : cell.description}
      className="group relative flex flex-wrap items-start gap-x-3 py-2 md:row-start-1 md:justify-center md:py-2.5"
    >
      {readOnly ? (
        <span
          className={cn(
            'mt-px flex size-5 shrink-0 items-center justify-center rounded-full',
            held ? 'bg-success/12 text-success' : 'bg-surface-muted text-muted-foreground',
          )}
        >
          {held ? (
            <Check aria-hidden="true" className="size-3" strokeWidth={3} />
          ) : (
            <Minus aria-hidden="true" className="size-3" strokeWidth={3} />
          )}
        </span>
      ) : (
        <MatrixBox
          id={id}
          ref={ref}
          checked={held}
          locked={isLocked}
          className="mt-0.5"
          aria-describedby={isLocked ? `${id}-description ${reasonId}` : `${id}-description`}
          onToggle={onToggle}
        />
      )}
      <div className="min-w-0 flex-1 md:sr-only">
        {readOnly ? (
          <>
            <span className={cn('text-sm font-medium', held ? 'text-foreground' : 'text-muted-foreground')}>
              {label}
            </span>
            <span className="sr-only">{held ? m.role.granted : m.role.notGranted}</span>
          </>
        ) : (
          <label
            htmlFor={id}
            className={cn('text-sm font-medium', isLocked ? 'text-muted-foreground' : 'text-foreground')}
          >
            {label}
          </label>
        )}{' '}
        <code aria-hidden="true" className="font-mono text-xs text-muted-foreground">
          {cell.name}
        </code>
        <span id={`${id}-description`} className="block text-xs text-muted-foreground">
          {cell.description}
        </span>
      </div>
      {isLocked ? (
        <>
          <Lock
            aria-hidden="true"
            className="mt-0.5 size-3.5 shrink-0 text-muted-foreground md:absolute md:top-1/2 md:left-[calc(50%+0.75rem)] md:mt-0 md:size-3 md:-translate-y-1/2"
          />
          {/* Stacked, a line under the label; in the grid, a tooltip on hover and on keyboard focus. */}
          <span
            id={reasonId}
            className={cn(
              'basis-full pt-1 pl-7 text-xs font-medium text-foreground/80',
              'md:pointer-events-none md:absolute md:top-full md:z-20 md:hidden md:w-60 md:rounded-md md:border md:border-border md:bg-surface md:px-3 md:py-2 md:text-left md:font-normal md:text-foreground md:shadow-lg',
              'md:group-focus-within:block md:group-hover:block',
              tipAlign === 'start' ? 'md:left-2' : 'md:right-2',
            )}
          >
            {cell.reason}
          </span>
        </>
      ) : null}
    </li>
  );
}

export interface MatrixBoxProps {
  id?: string;
  checked: boolean;
  indeterminate?: boolean;
  /** Shown, focusable and described, but not changeable. */
  locked?: boolean;
  'aria-label'?: string;
  'aria-describedby'?: string;
  className?: string;
  ref?: ((element: HTMLInputElement | null) => void) | undefined;
  onToggle: (on: boolean) => void;
}

/** A native checkbox drawn like the kit's (Radix) ones, with a mixed state for the "All" boxes. */
export function MatrixBox({
  checked,
  indeterminate = false,
  locked: isLocked = false,
  className,
  ref,
  onToggle,
  ...aria
}: MatrixBoxProps) {
  const own = useRef<HTMLInputElement | null>(null);
  useEffect(() => {
    if (own.current) own.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <span className={cn('relative inline-flex size-4 shrink-0', isLocked && 'opacity-50', className)}>
      <input
        type="checkbox"
        ref={(element) => {
          own.current = element;
          ref?.(element);
        }}
        checked={checked}
        aria-disabled={isLocked || undefined}
        // A locked box keeps focus and its description; a press changes nothing (React puts a
        // controlled box back as it was when its change is not taken).
        onChange={(event) => (isLocked ? undefined : onToggle(event.target.checked))}
        className={cn(
          'peer size-4 cursor-pointer appearance-none rounded-[4px] border border-muted-foreground/50 bg-surface transition-colors',
          'hover:border-foreground/70 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
          'checked:border-primary checked:bg-primary indeterminate:border-primary indeterminate:bg-primary',
          'aria-disabled:cursor-not-allowed aria-disabled:hover:border-muted-foreground/50',
        )}
        {...aria}
      />
      <Check
        aria-hidden="true"
        strokeWidth={3}
        className="pointer-events-none absolute inset-0 m-auto hidden size-3 text-primary-foreground peer-checked:block"
      />
      <Minus
        aria-hidden="true"
        strokeWidth={3}
        className="pointer-events-none absolute inset-0 m-auto hidden size-3 text-primary-foreground peer-indeterminate:block"
      />
    </span>
  );
}
