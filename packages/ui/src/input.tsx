import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';

export const inputClassName =
  'h-9 w-full min-w-0 rounded-md border border-border bg-surface px-3 text-sm text-foreground shadow-xs ' +
  'placeholder:text-muted-foreground/80 transition-colors ' +
  'focus-visible:border-ring focus-visible:outline-2 focus-visible:-outline-offset-1 focus-visible:outline-ring/40 ' +
  'disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-danger';

/** A text-like input (text, e-mail, search, date, number) in the app's look; label it. */
export function Input({ className, type = 'text', ...rest }: ComponentPropsWithRef<'input'>) {
  return <input type={type} className={cn(inputClassName, className)} {...rest} />;
}
