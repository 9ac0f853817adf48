import { cn } from '@app/ui';
import { Check } from 'lucide-react';

/** A row of toggle chips for one filter: each pressed value is in force (any of them matches). */
export function ToggleChips<V extends string>({
  label,
  options,
  selected,
  onChange,
}: {
  label: string;
  options: ReadonlyArray<{ value: V; label: string }>;
  selected: readonly V[];
  onChange: (next: V[]) => void;
}) {
  return (
    <fieldset className="flex flex-wrap items-center gap-1.5">
      <legend className="sr-only">{label}</legend>
      <span aria-hidden="true" className="mr-1 text-xs font-medium text-muted-foreground">
        {label}
      </span>
      {options.map((option) => {
        const pressed = selected.includes(option.value);
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={pressed}
            onClick={() =>
              onChange(
                pressed
                  ? selected.filter((v) => v !== option.value)
                  : options.map((o) => o.value).filter((v) => v === option.value || selected.includes(v)),
              )
            }
            className={cn(
              'inline-flex h-7 items-center gap-1 rounded-full border px-2.5 text-xs font-medium transition-colors',
              'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
              pressed
                ? 'border-primary/40 bg-primary/10 text-foreground'
                : 'border-border bg-surface text-muted-foreground hover:bg-surface-muted hover:text-foreground',
            )}
          >
            {pressed ? <Check aria-hidden="true" className="size-3" /> : null}
            {option.label}
          </button>
        );
      })}
    </fieldset>
  );
}
