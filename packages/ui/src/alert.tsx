import type { ReactNode } from 'react';
import { cn } from './cn';
import { AlertCircleIcon, AlertTriangleIcon, CheckCircleIcon, InfoIcon } from './icons';

export type AlertTone = 'info' | 'success' | 'warning' | 'danger';

const tones: Record<AlertTone, { box: string; icon: string; glyph: ReactNode }> = {
  info: { box: 'border-primary/25 bg-primary/5', icon: 'text-primary', glyph: <InfoIcon /> },
  success: { box: 'border-success/25 bg-success/5', icon: 'text-success', glyph: <CheckCircleIcon /> },
  warning: { box: 'border-warning/30 bg-warning/8', icon: 'text-warning', glyph: <AlertTriangleIcon /> },
  danger: { box: 'border-danger/25 bg-danger/5', icon: 'text-danger', glyph: <AlertCircleIcon /> },
};

export interface AlertProps {
  tone?: AlertTone;
  title?: ReactNode;
  children?: ReactNode;
  /** Buttons under the text (reload, dismiss). */
  actions?: ReactNode;
  /**
   * `alert` interrupts a screen reader (failures that block the task), `status` waits its turn.
   * Defaults to `alert` for danger and warning.
   */
  role?: 'alert' | 'status' | 'none';
  className?: string;
}

/** A banner inside the page: a failed sign-in, a conflict to resolve, a note about the form. */
export function Alert({ tone = 'info', title, children, actions, role, className }: AlertProps) {
  const style = tones[tone];
  const resolvedRole = role ?? (tone === 'danger' || tone === 'warning' ? 'alert' : 'status');
  return (
    <div
      role={resolvedRole === 'none' ? undefined : resolvedRole}
      className={cn('flex gap-3 rounded-lg border px-3.5 py-3 text-sm', style.box, className)}
    >
      <span className={cn('mt-0.5 [&_svg]:size-4', style.icon)}>{style.glyph}</span>
      <div className="min-w-0 flex-1">
        {title ? <p className="font-medium text-foreground">{title}</p> : null}
        {children ? (
          <div className={cn('text-pretty text-foreground/80', title ? 'mt-0.5' : undefined)}>{children}</div>
        ) : null}
        {actions ? <div className="mt-3 flex flex-wrap items-center gap-2">{actions}</div> : null}
      </div>
    </div>
  );
}

export interface FormErrorProps {
  title?: ReactNode;
  /** The message; nothing is rendered without one. */
  message?: ReactNode;
  actions?: ReactNode;
  className?: string;
}

/** A form-level failure (the server refused the whole submission), announced as an alert. */
export function FormError({ title, message, actions, className }: FormErrorProps) {
  if (!message && !title) return null;
  return (
    <Alert tone="danger" title={title} actions={actions} className={className}>
      {message}
    </Alert>
  );
}
