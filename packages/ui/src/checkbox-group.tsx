import * as Primitive from '@radix-ui/react-checkbox';
import { type ReactNode, useId } from 'react';
import { buttonClassName } from './button';
import { cn } from './cn';
import { describedBy, FieldError } from './field';
import { CheckIcon, LockIcon } from './icons';

export interface CheckboxOption<V extends string | number> {
  value: V;
  label: ReactNode;
  /** A second line under the label (what the option means, or why it is disabled). */
  description?: ReactNode;
  /** A disabled option keeps its checked state and shows a lock, so a locked choice is visible. */
  disabled?: boolean;
}

export interface CheckboxGroupProps<V extends string | number> {
  legend: ReactNode;
  description?: ReactNode;
  options: ReadonlyArray<CheckboxOption<V>>;
  value: readonly V[];
  onChange: (value: V[]) => void;
  onBlur?: () => void;
  error?: string | undefined;
  /** Shown instead of the list when there are no options. */
  emptyMessage?: ReactNode;
  /** Where an error about the group as a whole points focus (e.g. react-hook-form's `ref`). */
  ref?: (element: HTMLButtonElement | null) => void;
  /** A button beside the legend that ticks every enabled option, or clears them all when all are ticked. */
  bulkToggle?: { selectAll: string; clear: string };
  className?: string;
}

/**
 * A labelled list of checkboxes for picking several values (roles, tags). A <fieldset> with a
 * <legend>, each row a Radix checkbox with a real <label>; values keep the options' order.
 */
export function CheckboxGroup<V extends string | number>({
  legend,
  description,
  options,
  value,
  onChange,
  onBlur,
  error,
  emptyMessage,
  ref,
  bulkToggle,
  className,
}: CheckboxGroupProps<V>) {
  const groupId = useId();
  const descriptionId = `${groupId}-description`;
  const errorId = `${groupId}-error`;
  const selected = new Set<V>(value);
  const toggle = (option: V, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(option);
    else next.delete(option);
    onChange(options.map((o) => o.value).filter((v) => next.has(v)));
  };
  // The first enabled box receives focus when the group is the first invalid field.
  const focusTarget = options.find((o) => !o.disabled)?.value;
  // Disabled options keep their state either way.
  const enabled = options.filter((o) => !o.disabled).map((o) => o.value);
  const allTicked = enabled.length > 0 && enabled.every((v) => selected.has(v));
  const tickAll = (on: boolean) => {
    const next = new Set(selected);
    for (const v of enabled) {
      if (on) next.add(v);
      else next.delete(v);
    }
    onChange(options.map((o) => o.value).filter((v) => next.has(v)));
  };

  return (
    <fieldset
      className={cn('flex min-w-0 flex-col gap-1.5', className)}
      aria-describedby={describedBy(description ? descriptionId : undefined, error ? errorId : undefined)}
      aria-invalid={error ? true : undefined}
    >
      {bulkToggle && enabled.length > 1 ? (
        <>
          {/* The legend names the group for assistive technology; the row shows it beside the button. */}
          <legend className="sr-only">{legend}</legend>
          <div className="flex items-center justify-between gap-3">
            <span aria-hidden="true" className="text-sm font-medium text-foreground">
              {legend}
            </span>
            <button
              type="button"
              onClick={() => tickAll(!allTicked)}
              // A quiet button that does not make the row taller than the legend's line.
              className={buttonClassName({ variant: 'ghost', size: 'sm', className: '-my-1.5 -mr-2' })}
            >
              {allTicked ? bulkToggle.clear : bulkToggle.selectAll}
            </button>
          </div>
        </>
      ) : (
        <legend className="mb-1.5 text-sm font-medium text-foreground">{legend}</legend>
      )}
      {options.length === 0 ? (
        <p className="rounded-lg border border-dashed border-border px-3 py-4 text-center text-sm text-muted-foreground">
          {emptyMessage}
        </p>
      ) : (
        <ul
          className={cn(
            // `isolate`: the boxes' z-index (above the row-wide label) stays inside the list, so a
            // sticky footer of the form the list scrolls under (the filter popover's) covers them.
            'isolate divide-y divide-border overflow-hidden rounded-lg border bg-surface',
            error ? 'border-danger' : 'border-border',
          )}
        >
          {options.map((option) => {
            const id = `${groupId}-${String(option.value)}`;
            const checked = selected.has(option.value);
            return (
              <li
                key={String(option.value)}
                className={cn(
                  // The label's ::after stretches over the row, so the whole row toggles the box
                  // while the accessible name stays the label alone (the help is a description).
                  'relative flex items-start gap-3 px-3 py-2.5 transition-colors',
                  option.disabled
                    ? 'cursor-not-allowed bg-surface-muted/40'
                    : 'cursor-pointer hover:bg-surface-muted/60',
                )}
              >
                <Primitive.Root
                  id={id}
                  ref={option.value === focusTarget ? ref : undefined}
                  checked={checked}
                  disabled={option.disabled}
                  onCheckedChange={(next) => toggle(option.value, next === true)}
                  onBlur={onBlur}
                  aria-describedby={option.description ? `${id}-description` : undefined}
                  className={cn(
                    'relative z-10 mt-0.5 flex size-4 shrink-0 items-center justify-center rounded-[4px] border border-muted-foreground/50 bg-surface',
                    'transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                    'data-[state=checked]:border-primary data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground',
                    'disabled:cursor-not-allowed disabled:opacity-50',
                  )}
                >
                  <Primitive.Indicator>
                    <CheckIcon className="size-3" strokeWidth={3} />
                  </Primitive.Indicator>
                </Primitive.Root>
                <span className="min-w-0 flex-1">
                  <label
                    htmlFor={id}
                    className={cn(
                      'block text-sm font-medium after:absolute after:inset-0',
                      option.disabled ? 'cursor-not-allowed text-muted-foreground' : 'cursor-pointer text-foreground',
                    )}
                  >
                    {option.label}
                  </label>
                  {option.description ? (
                    <span id={`${id}-description`} className="mt-0.5 block text-xs text-muted-foreground">
                      {option.description}
                    </span>
                  ) : null}
                </span>
                {option.disabled ? <LockIcon className="mt-0.5 size-3.5 shrink-0 text-muted-foreground" /> : null}
              </li>
            );
          })}
        </ul>
      )}
      {description ? (
        <p id={descriptionId} className="text-xs text-pretty text-muted-foreground">
          {description}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}
