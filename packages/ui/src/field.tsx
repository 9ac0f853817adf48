import { type ComponentPropsWithRef, type ReactNode, useId, useState } from 'react';
import { cn } from './cn';
import { AlertCircleIcon, EyeIcon, EyeOffIcon } from './icons';
import { inputClassName } from './input';

export interface FieldShellProps {
  /** The id of the control, so the label points at it. */
  controlId: string;
  label: ReactNode;
  /** Help under the label, read with the control. */
  description?: ReactNode;
  descriptionId?: string;
  /** The message shown under the control when its value is refused. */
  error?: string | undefined;
  errorId?: string;
  /** Right of the label: "Optional", a link, a counter. */
  labelAside?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** Label, help, control and error message, laid out and wired (`htmlFor`); see TextField. */
export function FieldShell({
  controlId,
  label,
  description,
  descriptionId,
  error,
  errorId,
  labelAside,
  className,
  children,
}: FieldShellProps) {
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={controlId} className="text-sm font-medium text-foreground">
          {label}
        </label>
        {labelAside ? <span className="text-xs text-muted-foreground">{labelAside}</span> : null}
      </div>
      {children}
      {description ? (
        <p id={descriptionId} className="text-xs text-pretty text-muted-foreground">
          {description}
        </p>
      ) : null}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** A field's error line; renders nothing without a message. */
export function FieldError({ id, message }: { id?: string | undefined; message?: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="flex items-start gap-1.5 text-xs font-medium text-danger">
      <AlertCircleIcon className="mt-px size-3.5 shrink-0" />
      <span>{message}</span>
    </p>
  );
}

/** The ids a control refers to in `aria-describedby`, for whichever of help and error are shown. */
export function describedBy(...ids: Array<string | false | undefined>): string | undefined {
  const list = ids.filter(Boolean);
  return list.length > 0 ? list.join(' ') : undefined;
}

export interface TextFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'children'> {
  label: ReactNode;
  description?: ReactNode;
  error?: string | undefined;
  labelAside?: ReactNode;
  /** Inside the input's right edge (a toggle, a unit); the input leaves room for it. */
  trailing?: ReactNode;
  /** Classes of the wrapper; `className` styles the input itself. */
  fieldClassName?: string;
}

/**
 * A labelled input with help and error text wired for assistive tech (`aria-invalid`,
 * `aria-describedby`). Spreads the rest onto the <input>, so `{...register('email')}` works.
 */
export function TextField({
  label,
  description,
  error,
  labelAside,
  trailing,
  fieldClassName,
  className,
  id,
  ...rest
}: TextFieldProps) {
  const autoId = useId();
  const controlId = id ?? autoId;
  const descriptionId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  return (
    <FieldShell
      controlId={controlId}
      label={label}
      description={description}
      descriptionId={descriptionId}
      error={error}
      errorId={errorId}
      labelAside={labelAside}
      className={fieldClassName}
    >
      <div className="relative">
        <input
          id={controlId}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(description ? descriptionId : undefined, error ? errorId : undefined)}
          className={cn(inputClassName, trailing ? 'pr-10' : undefined, className)}
          {...rest}
        />
        {trailing ? <div className="absolute inset-y-0 right-0 flex items-center pr-1">{trailing}</div> : null}
      </div>
    </FieldShell>
  );
}

export interface PasswordFieldProps extends Omit<TextFieldProps, 'type' | 'trailing'> {
  /** Accessible names of the reveal toggle. */
  showLabel: string;
  hideLabel: string;
}

/** A password input with a show/hide toggle; the toggle keeps focus order and never submits. */
export function PasswordField({ showLabel, hideLabel, ...rest }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  return (
    <TextField
      {...rest}
      type={visible ? 'text' : 'password'}
      spellCheck={false}
      autoCapitalize="none"
      trailing={
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-label={visible ? hideLabel : showLabel}
          title={visible ? hideLabel : showLabel}
          className="flex size-7 items-center justify-center rounded-md text-muted-foreground transition-colors hover:bg-surface-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      }
    />
  );
}
