import type { ComponentPropsWithRef } from 'react';
import { cn } from './cn';
import { ChevronDownIcon } from './icons';
import { inputClassName } from './input';

/**
 * The platform's <select>: keyboard, screen readers and the mobile picker for free. For short
 * option lists (page size, a status); label it.
 */
export function NativeSelect({ className, children, ...rest }: ComponentPropsWithRef<'select'>) {
  return (
    <div className={cn('relative', className)}>
      <select className={cn(inputClassName, 'cursor-pointer appearance-none pr-8')} {...rest}>
        {children}
      </select>
      <ChevronDownIcon className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted-foreground" />
    </div>
  );
}
