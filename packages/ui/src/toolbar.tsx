import type { ComponentPropsWithRef, KeyboardEvent } from 'react';
import { cn } from './cn';
import { SearchIcon, XIcon } from './icons';
import { inputClassName } from './input';

/** The row of controls above a table: wraps on narrow screens, `ToolbarSpacer` pushes the rest right. */
export function Toolbar({ className, ...rest }: ComponentPropsWithRef<'div'>) {
  return <div className={cn('flex flex-wrap items-center gap-2', className)} {...rest} />;
}

export function ToolbarSpacer() {
  return <div aria-hidden="true" className="hidden flex-1 sm:block" />;
}

export interface SearchInputProps extends Omit<ComponentPropsWithRef<'input'>, 'value' | 'onChange' | 'type'> {
  value: string;
  onValueChange: (value: string) => void;
  /** Accessible name (a search box's placeholder is not a label). */
  label: string;
  /** Name of the clear button, shown while there is text. */
  clearLabel: string;
}

/** A search box with an icon and a clear button; Escape clears it too. */
export function SearchInput({
  value,
  onValueChange,
  label,
  clearLabel,
  className,
  onKeyDown,
  ...rest
}: SearchInputProps) {
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape' && value !== '') {
      event.preventDefault();
      onValueChange('');
    }
    onKeyDown?.(event);
  };
  return (
    <div className={cn('relative', className)}>
      <SearchIcon className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
      <input
        type="search"
        aria-label={label}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        onKeyDown={keyDown}
        autoComplete="off"
        spellCheck={false}
        className={cn(inputClassName, 'h-8 pr-8 pl-8 [&::-webkit-search-cancel-button]:appearance-none')}
        {...rest}
      />
      {value !== '' ? (
        <button
          type="button"
          aria-label={clearLabel}
          onClick={(event) => {
            onValueChange('');
            // The button disappears with the text: keep focus in the box rather than lose it.
            event.currentTarget.parentElement?.querySelector('input')?.focus();
          }}
          className="absolute top-1/2 right-1 flex size-6 -translate-y-1/2 items-center justify-center rounded text-muted-foreground hover:bg-surface-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        >
          <XIcon className="size-3.5" />
        </button>
      ) : null}
    </div>
  );
}
