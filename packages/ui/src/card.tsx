import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

export function Card({ className, ...rest }: ComponentPropsWithRef<'section'>) {
  return <section className={cn('rounded-xl border border-border bg-surface shadow-xs', className)} {...rest} />;
}

export function CardHeader({ className, ...rest }: ComponentPropsWithRef<'div'>) {
  return <div className={cn('flex items-start justify-between gap-4 px-5 pt-5', className)} {...rest} />;
}

export interface CardTitleProps extends ComponentPropsWithRef<'h2'> {
  /** Heading level that fits the page outline; defaults to h2 under the page's h1. */
  as?: 'h2' | 'h3' | 'h4';
}

export function CardTitle({ as: Heading = 'h2', className, ...rest }: CardTitleProps) {
  return <Heading className={cn('text-sm font-semibold tracking-tight text-foreground', className)} {...rest} />;
}

export function CardDescription({ className, ...rest }: ComponentPropsWithRef<'p'>) {
  return <p className={cn('mt-1 text-sm text-muted-foreground', className)} {...rest} />;
}

export function CardContent({ className, ...rest }: ComponentPropsWithRef<'div'>) {
  return <div className={cn('p-5', className)} {...rest} />;
}

export function CardFooter({ className, ...rest }: ComponentPropsWithRef<'div'>) {
  return (
    <div
      className={cn(
        'flex flex-wrap items-center justify-between gap-3 border-t border-border px-5 py-3 text-xs text-muted-foreground',
        className,
      )}
      {...rest}
    />
  );
}
