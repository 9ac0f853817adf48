import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

export type BadgeTone = 'neutral' | 'success' | 'warning' | 'danger';

const tones: Record<BadgeTone, { badge: string; dot: string }> = {
  neutral: { badge: 'bg-surface-muted text-muted-foreground ring-border', dot: 'bg-muted-foreground' },
  success: { badge: 'bg-success/10 text-success ring-success/25', dot: 'bg-success' },
  warning: { badge: 'bg-warning/10 text-warning ring-warning/25', dot: 'bg-warning' },
  danger: { badge: 'bg-danger/10 text-danger ring-danger/25', dot: 'bg-danger' },
};

export interface BadgeProps extends ComponentPropsWithRef<'span'> {
  tone?: BadgeTone;
  /** A leading status dot; colour alone never carries the meaning, the text does. */
  dot?: boolean;
}

export function Badge({ tone = 'neutral', dot = false, className, children, ...rest }: BadgeProps) {
  const style = tones[tone];
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset',
        style.badge,
        className,
      )}
      {...rest}
    >
      {dot ? <span aria-hidden="true" className={cn('size-1.5 rounded-full', style.dot)} /> : null}
      {children}
    </span>
  );
}
