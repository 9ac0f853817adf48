import * as Primitive from '@radix-ui/react-checkbox';
import { cn } from './cn';
import { CheckIcon, MinusIcon } from './icons';

export interface SelectionCheckboxProps {
  /** `indeterminate` for a header box when only some rows are selected. */
  checked: boolean | 'indeterminate';
  onCheckedChange: (checked: boolean) => void;
  /** Always required: a checkbox in a table cell has no visible label. */
  'aria-label': string;
  disabled?: boolean;
  className?: string;
}

export function SelectionCheckbox({ checked, onCheckedChange, disabled, className, ...rest }: SelectionCheckboxProps) {
  return (
    <Primitive.Root
      checked={checked}
      // Indeterminate → checked: a click on a half-selected header selects the rest.
      onCheckedChange={(next) => onCheckedChange(next === true)}
      disabled={disabled}
      aria-label={rest['aria-label']}
      className={cn(
        'peer flex size-4 shrink-0 items-center justify-center rounded-[4px] border border-muted-foreground/50 bg-surface',
        'transition-colors hover:border-foreground/70',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        'data-[state=checked]:border-primary data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground',
        'data-[state=indeterminate]:border-primary data-[state=indeterminate]:bg-primary data-[state=indeterminate]:text-primary-foreground',
        'disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
    >
      <Primitive.Indicator>
        {checked === 'indeterminate' ? (
          <MinusIcon className="size-3" strokeWidth={3} />
        ) : (
          <CheckIcon className="size-3" strokeWidth={3} />
        )}
      </Primitive.Indicator>
    </Primitive.Root>
  );
}
