import { type ComponentPropsWithRef, useId } from 'react';
import { cn } from './cn';
import { Spinner } from './spinner';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';
export type ButtonSize = 'sm' | 'md' | 'lg' | 'icon' | 'icon-sm' | 'icon-xs';

const base =
  'inline-flex select-none items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium transition-colors ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring ' +
  'disabled:cursor-not-allowed disabled:opacity-60 [&_svg]:shrink-0';

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-primary text-primary-foreground shadow-xs hover:bg-primary/90',
  secondary: 'border border-border bg-surface text-foreground shadow-xs hover:bg-surface-muted',
  ghost: 'text-muted-foreground hover:bg-surface-muted hover:text-foreground',
  danger: 'bg-danger text-danger-foreground shadow-xs hover:bg-danger/90',
};

const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-xs [&_svg]:size-3.5',
  md: 'h-9 px-4 text-sm [&_svg]:size-4',
  lg: 'h-10 px-5 text-sm [&_svg]:size-4',
  icon: 'size-9 text-sm [&_svg]:size-4',
  // Square buttons for dense places (pagination, table rows): classes do not override each other.
  'icon-sm': 'size-8 text-sm [&_svg]:size-4',
  'icon-xs': 'size-7 text-xs [&_svg]:size-4',
};

/** The button look for another element, e.g. a router link that should read as a button. */
export function buttonClassName({
  variant = 'primary',
  size = 'md',
  className,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string | undefined;
} = {}): string {
  return cn(base, variants[variant], sizes[size], className);
}

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Shows a spinner, disables the button and marks it busy; the label stays so width is stable. */
  loading?: boolean;
  /**
   * Why the action cannot be taken now (the server's sentence). The button stays in place and
   * focusable, reads as unavailable (`aria-disabled`), gives the reason as its tooltip and
   * description, and does nothing when pressed: a reason cannot be read off a button that
   * keyboard users can never reach.
   */
  unavailableReason?: string | null | undefined;
}

/** React 19 passes `ref` as a prop, so the ref reaches the <button> without forwardRef. */
export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  disabled,
  type = 'button',
  className,
  children,
  unavailableReason,
  ...rest
}: ButtonProps) {
  const reasonId = useId();
  if (unavailableReason) {
    const { onClick: _ignored, ...inert } = rest;
    // A description the caller already shows (aria-describedby) is the reason's; else our own,
    // outside the button so it does not become part of the button's name.
    const describedBy = rest['aria-describedby'];
    return (
      <>
        <button
          type={type}
          aria-disabled="true"
          aria-describedby={reasonId}
          title={unavailableReason}
          className={buttonClassName({ variant, size, className: cn('cursor-not-allowed opacity-60', className) })}
          {...inert}
          onClick={(event) => event.preventDefault()}
        >
          {children}
        </button>
        {describedBy ? null : (
          <span id={reasonId} className="sr-only">
            {unavailableReason}
          </span>
        )}
      </>
    );
  }
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={buttonClassName({ variant, size, className })}
      {...rest}
    >
      {loading ? <Spinner /> : null}
      {children}
    </button>
  );
}
