import * as Primitive from '@radix-ui/react-switch';
import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';
import { cn } from './cn';
import { describedBy, FieldError } from './field';

/** Radix's switch (role="switch", Space toggles) in the app's look; label it. */
export function Switch({ className, ...rest }: ComponentPropsWithRef<typeof Primitive.Root>) {
  return (
    <Primitive.Root
      className={cn(
        'peer inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border border-transparent p-px transition-colors',
        'bg-muted-foreground/35 data-[state=checked]:bg-primary',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
        'disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
      {...rest}
    >
      <Primitive.Thumb className="pointer-events-none block size-4 rounded-full bg-white shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-4" />
    </Primitive.Root>
  );
}

export interface SwitchFieldProps {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  onBlur?: () => void;
  disabled?: boolean;
  error?: string | undefined;
  name?: string;
  id?: string;
  className?: string;
  ref?: ComponentPropsWithRef<typeof Primitive.Root>['ref'];
}

/** A setting row: label and help on the left, the switch on the right; the whole label toggles it. */
export function SwitchField({
  label,
  description,
  checked,
  onCheckedChange,
  onBlur,
  disabled,
  error,
  name,
  id,
  className,
  ref,
}: SwitchFieldProps) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const descriptionId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <label htmlFor={controlId} className="text-sm font-medium text-foreground">
            {label}
          </label>
          {description ? (
            <p id={descriptionId} className="mt-0.5 text-xs text-pretty text-muted-foreground">
              {description}
            </p>
          ) : null}
        </div>
        <Switch
          id={controlId}
          ref={ref}
          name={name}
          checked={checked}
          onCheckedChange={onCheckedChange}
          onBlur={onBlur}
          disabled={disabled}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(description ? descriptionId : undefined, error ? errorId : undefined)}
          className="mt-0.5"
        />
      </div>
      <FieldError id={errorId} message={error} />
    </div>
  );
}
