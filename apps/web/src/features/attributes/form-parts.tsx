import { ATTRIBUTE_SENSITIVITIES, type AttributeSensitivity } from '@app/contracts';
import { cn, describedBy, FieldError, FieldShell, inputClassName, NativeSelect } from '@app/ui';
import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';
import { useAttributesMessages } from '../../i18n/attributes-messages';

interface ShellProps {
  label: ReactNode;
  description?: ReactNode;
  error?: string | undefined;
  labelAside?: ReactNode;
}

/** A labelled multi-line input wired like TextField (help, error, `aria-invalid`). */
export function TextAreaField({
  label,
  description,
  error,
  labelAside,
  className,
  ...rest
}: ShellProps & Omit<ComponentPropsWithRef<'textarea'>, 'children'>) {
  const id = useId();
  return (
    <FieldShell
      controlId={id}
      label={label}
      description={description}
      descriptionId={`${id}-description`}
      error={error}
      errorId={`${id}-error`}
      labelAside={labelAside}
    >
      <textarea
        id={id}
        rows={4}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(description ? `${id}-description` : undefined, error ? `${id}-error` : undefined)}
        className={cn(inputClassName, 'h-auto min-h-20 py-2', className)}
        {...rest}
      />
    </FieldShell>
  );
}

/** A labelled <select> wired like TextField. */
export function SelectField({
  label,
  description,
  error,
  labelAside,
  children,
  ...rest
}: ShellProps & ComponentPropsWithRef<'select'>) {
  const id = useId();
  return (
    <FieldShell
      controlId={id}
      label={label}
      description={description}
      descriptionId={`${id}-description`}
      error={error}
      errorId={`${id}-error`}
      labelAside={labelAside}
    >
      <NativeSelect
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(description ? `${id}-description` : undefined, error ? `${id}-error` : undefined)}
        {...rest}
      >
        {children}
      </NativeSelect>
    </FieldShell>
  );
}

/** The three sensitivities as radio buttons, each with the sentence saying what it means. */
export function SensitivityChoice({
  value,
  onChange,
  error,
}: {
  value: AttributeSensitivity;
  onChange: (value: AttributeSensitivity) => void;
  error?: string | undefined;
}) {
  const m = useAttributesMessages();
  const name = useId();
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${name}-error` : undefined}>
      <legend className="mb-1.5 text-sm font-medium text-foreground">{m.attributeForm.sensitivity}</legend>
      {ATTRIBUTE_SENSITIVITIES.map((sensitivity) => {
        const id = `${name}-${sensitivity}`;
        return (
          // The label's ::after covers the row, so the whole row picks it (as the import's modes do).
          <div
            key={sensitivity}
            className="relative flex items-start gap-3 rounded-lg border border-border px-3 py-2.5 has-checked:border-primary has-checked:bg-primary/5"
          >
            <input
              id={id}
              type="radio"
              name={name}
              value={sensitivity}
              checked={value === sensitivity}
              onChange={() => onChange(sensitivity)}
              aria-describedby={`${id}-description`}
              className="relative z-10 mt-1 accent-primary"
            />
            <span className="min-w-0">
              <label
                htmlFor={id}
                className="block cursor-pointer text-sm font-medium text-foreground after:absolute after:inset-0"
              >
                {m.sensitivities[sensitivity].label}
              </label>
              <span id={`${id}-description`} className="block text-xs text-pretty text-muted-foreground">
                {m.sensitivities[sensitivity].description}
              </span>
            </span>
          </div>
        );
      })}
      <FieldError id={`${name}-error`} message={error} />
    </fieldset>
  );
}
